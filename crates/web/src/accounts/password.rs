//! Passwords: Argon2id with the `argon2` crate's default parameters, kept
//! as PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`). Hashing and
//! verifying take tens of milliseconds and about 19 MiB each: they run on
//! the blocking threads, at most [`HASHING_AT_ONCE`] at a time, so a flood
//! of sign-ins cannot stall the async workers or exhaust memory.

use crate::error::ApiError;
use crate::logs;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use std::sync::OnceLock;
use tokio::sync::Semaphore;

/// Passwords hashed or verified at once; the others wait.
pub const HASHING_AT_ONCE: usize = 2;

/// The shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// The longest password, in bytes: longer is refused before any hashing.
pub const MAX_PASSWORD_BYTES: usize = 256;

/// Whether `password` may be a new password: a reason when not.
pub fn check_new(password: &str) -> Result<(), ApiError> {
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(ApiError::BadRequest(format!(
            "a password has at most {MAX_PASSWORD_BYTES} bytes"
        )));
    }
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(ApiError::BadRequest(format!(
            "a password has at least {MIN_PASSWORD_CHARS} characters"
        )));
    }
    Ok(())
}

/// The hasher: a permit per running hash.
pub(crate) struct Hasher {
    permits: Semaphore,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher {
            permits: Semaphore::new(HASHING_AT_ONCE),
        }
    }
}

/// A hash to verify against when the name is unknown, so that an unknown
/// name costs the same work as a wrong password.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let password = crate::seat::random_base62(24);
        hash_now(&password).unwrap_or_default()
    })
}

fn hash_now(password: &str) -> Result<String, String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

fn verify_now(password: &str, hash: &str) -> bool {
    match PasswordHash::new(hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

impl Hasher {
    async fn blocking<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| ApiError::Internal("the password hasher is closed".into()))?;
        let span = tracing::Span::current();
        tokio::task::spawn_blocking(move || {
            let _in_request = span.enter();
            job()
        })
        .await
        .map_err(|e| ApiError::Internal(format!("hashing a password {}", logs::join_error(e))))
    }

    /// The PHC string of `password` with a new random salt.
    pub(crate) async fn hash(&self, password: String) -> Result<String, ApiError> {
        self.blocking(move || hash_now(&password))
            .await?
            .map_err(|e| ApiError::Internal(format!("hashing a password failed: {e}")))
    }

    /// Whether `password` matches `hash`; with no hash (an unknown name),
    /// false after the same work against a dummy hash.
    pub(crate) async fn verify(
        &self,
        password: String,
        hash: Option<String>,
    ) -> Result<bool, ApiError> {
        self.blocking(move || match hash {
            Some(h) => verify_now(&password, &h),
            None => {
                verify_now(&password, dummy_hash());
                false
            }
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_argon2id_and_verifies_only_its_password() {
        let h = hash_now("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$"), "{h}");
        assert!(verify_now("correct horse", &h));
        assert!(!verify_now("correct horsf", &h));
        assert!(!verify_now("correct horse", "not a hash"));
        assert_ne!(
            h,
            hash_now("correct horse").unwrap(),
            "a new salt each time"
        );
        assert!(dummy_hash().starts_with("$argon2id$"));
    }

    #[test]
    fn new_passwords_are_checked_for_length() {
        assert!(check_new("1234567").is_err());
        assert!(check_new("12345678").is_ok());
        assert!(check_new(&"x".repeat(MAX_PASSWORD_BYTES)).is_ok());
        assert!(check_new(&"x".repeat(MAX_PASSWORD_BYTES + 1)).is_err());
        // Characters, not bytes, for the minimum.
        assert!(check_new("ééééééé").is_err());
    }
}
