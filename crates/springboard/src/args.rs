//! Parsers of command-line values that several subcommands share.

use springboard_rules::Variant;

/// Parses a variant name for clap.
pub(crate) fn parse_variant(text: &str) -> Result<Variant, String> {
    let v: Variant = text
        .parse()
        .map_err(|e: springboard_rules::VariantError| e.to_string())?;
    if !v.is_implemented() {
        return Err(format!("the variant '{v}' is not implemented yet"));
    }
    Ok(v)
}
