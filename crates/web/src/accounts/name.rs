//! Usernames: 3 to 20 characters, ASCII letters, digits, `-` and `_`,
//! unique without regard to case (the stored id is the lower-cased name).

use crate::error::ApiError;

pub const MIN_NAME_CHARS: usize = 3;
pub const MAX_NAME_CHARS: usize = 20;

/// The id of a well-formed name (lower-cased), or why it is not one.
pub fn check(name: &str) -> Result<String, ApiError> {
    if name.len() < MIN_NAME_CHARS || name.len() > MAX_NAME_CHARS {
        return Err(ApiError::BadRequest(format!(
            "a username has {MIN_NAME_CHARS} to {MAX_NAME_CHARS} characters"
        )));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(ApiError::BadRequest(
            "a username has only letters (a-z, A-Z), digits, '-' and '_'".into(),
        ));
    }
    Ok(name.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_lower_cased() {
        assert_eq!(check("Alice_99").unwrap(), "alice_99");
        assert_eq!(check("a-b").unwrap(), "a-b");
        assert_eq!(check(&"x".repeat(20)).unwrap(), "x".repeat(20));
        for bad in [
            "ab",
            "",
            &"x".repeat(21),
            "<b>x</b>",
            "a b c",
            "émile",
            "ab\u{0}c",
            "a.b.c",
        ] {
            assert!(check(bad).is_err(), "{bad:?}");
        }
    }
}
