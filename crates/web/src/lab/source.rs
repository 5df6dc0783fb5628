//! Where the lab's results are read from: the repository's `lab/*.json`
//! embedded at build time (`build.rs`; none without a `lab/` directory),
//! or a directory read at each request (`serve --lab DIR`). Each file is
//! parsed and checked when read ([`crate::lab::schema`]); a bad one is a
//! [`LabError`] naming it, never a panic, and the list carries the
//! others.

use super::schema::{is_question_name, LabResult};
use std::collections::HashMap;
use std::path::PathBuf;

// LAB_FILES, written by build.rs.
include!(concat!(env!("OUT_DIR"), "/lab_files.rs"));

/// The largest lab file read (a result is a few kilobytes).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The question listed first: the figures of every game side by side.
const FIRST: &str = "every";

/// Where the results come from.
#[derive(Debug, Clone)]
pub enum Source {
    /// Files embedded in the binary: (file name, bytes).
    Embedded(&'static [(&'static str, &'static [u8])]),
    /// The `*.json` files of a directory, read at each request.
    Dir(PathBuf),
}

impl Default for Source {
    /// The repository's `lab/` as it was at build time.
    fn default() -> Source {
        Source::Embedded(LAB_FILES)
    }
}

/// A file's name and its bytes, or why they cannot be read.
type NamedBytes = (String, Result<Vec<u8>, LabError>);

/// Why a result cannot be served.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LabError {
    #[error("there is no lab question '{0}'")]
    Unknown(String),
    #[error("the lab file {file} is not valid: {reason}")]
    Invalid { file: String, reason: String },
    #[error("the lab file {file} is {bytes} bytes; at most {MAX_FILE_BYTES} are read")]
    TooLarge { file: String, bytes: u64 },
    #[error("cannot read {what}: {reason}")]
    Read { what: String, reason: String },
}

/// The results that read well, in the list's order, and each file that
/// did not with its error.
#[derive(Debug, Default)]
pub struct Listing {
    pub results: Vec<LabResult>,
    pub errors: Vec<(String, LabError)>,
}

/// `bytes`, the content of the file `file`, as a checked result.
pub fn parse(file: &str, bytes: &[u8]) -> Result<LabResult, LabError> {
    let invalid = |reason: String| LabError::Invalid {
        file: file.to_string(),
        reason,
    };
    let result: LabResult = serde_json::from_slice(bytes).map_err(|e| invalid(e.to_string()))?;
    result.check(file).map_err(|e| invalid(e.to_string()))?;
    Ok(result)
}

impl Source {
    /// Every result, `every` first and then by question; a file that
    /// does not read, parse or check, or that reuses another file's chart
    /// id, is left out with its error. Blocks on a directory's files.
    pub fn list(&self) -> Result<Listing, LabError> {
        let mut listing = Listing::default();
        let mut files = self.files()?;
        files.sort_by(|a, b| {
            let key = |name: &str| (name != format!("{FIRST}.json"), name.to_string());
            key(&a.0).cmp(&key(&b.0))
        });
        // Chart ids are unique across the files (the page's anchors).
        let mut charts: HashMap<String, String> = HashMap::new();
        for (file, bytes) in files {
            let result = bytes.and_then(|b| parse(&file, &b)).and_then(|r| {
                match r
                    .charts
                    .iter()
                    .find_map(|c| charts.get(c.id()).map(|f| (c.id(), f)))
                {
                    Some((id, other)) => Err(LabError::Invalid {
                        file: file.clone(),
                        reason: format!("the chart id '{id}' is {other}'s too"),
                    }),
                    None => Ok(r),
                }
            });
            match result {
                Ok(r) => {
                    for c in &r.charts {
                        charts.insert(c.id().to_string(), file.clone());
                    }
                    listing.results.push(r);
                }
                Err(e) => listing.errors.push((file, e)),
            }
        }
        Ok(listing)
    }

    /// The result of `question`. Blocks on a directory's file.
    pub fn question(&self, question: &str) -> Result<LabResult, LabError> {
        let unknown = || LabError::Unknown(question.to_string());
        // Only a question's name makes a file name: nothing else is read.
        if !is_question_name(question) {
            return Err(unknown());
        }
        let file = format!("{question}.json");
        let bytes = match self {
            Source::Embedded(files) => files
                .iter()
                .find(|(name, _)| *name == file)
                .map(|(_, bytes)| bytes.to_vec())
                .ok_or_else(unknown)?,
            Source::Dir(dir) => {
                let path = dir.join(&file);
                if !path.is_file() {
                    return Err(unknown());
                }
                read(&file, &path)?
            }
        };
        parse(&file, &bytes)
    }

    /// Each `*.json` file's name and its bytes (or why they cannot be
    /// read).
    fn files(&self) -> Result<Vec<NamedBytes>, LabError> {
        match self {
            Source::Embedded(files) => Ok(files
                .iter()
                .map(|(name, bytes)| (name.to_string(), Ok(bytes.to_vec())))
                .collect()),
            Source::Dir(dir) => {
                let entries = std::fs::read_dir(dir).map_err(|e| LabError::Read {
                    what: format!("the lab directory {}", dir.display()),
                    reason: e.to_string(),
                })?;
                let mut files = Vec::new();
                for entry in entries.flatten() {
                    let path = entry.path();
                    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                        continue;
                    };
                    if !name.ends_with(".json") || !path.is_file() {
                        continue;
                    }
                    let name = name.to_string();
                    let bytes = read(&name, &path);
                    files.push((name, bytes));
                }
                Ok(files)
            }
        }
    }
}

/// The file `file` at `path`, if it is not too large.
fn read(file: &str, path: &std::path::Path) -> Result<Vec<u8>, LabError> {
    let failed = |e: std::io::Error| LabError::Read {
        what: format!("the lab file {file}"),
        reason: e.to_string(),
    };
    let bytes = std::fs::metadata(path).map_err(failed)?.len();
    if bytes > MAX_FILE_BYTES {
        return Err(LabError::TooLarge {
            file: file.to_string(),
            bytes,
        });
    }
    std::fs::read(path).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No `lab/` directory at build time: an empty list, and no question.
    #[test]
    fn nothing_embedded_is_an_empty_list() {
        let source = Source::Embedded(&[]);
        let listing = source.list().unwrap();
        assert!(listing.results.is_empty() && listing.errors.is_empty());
        assert_eq!(
            source.question("hoplit").unwrap_err(),
            LabError::Unknown("hoplit".into())
        );
    }

    /// The repository's `lab/` files, embedded in this build, all keep
    /// the contract (none when the repository has no `lab/` yet).
    #[test]
    fn the_embedded_results_are_valid() {
        let listing = Source::default().list().unwrap();
        assert!(listing.errors.is_empty(), "{:?}", listing.errors);
        assert_eq!(listing.results.len(), LAB_FILES.len());
    }

    #[test]
    fn a_name_that_is_no_question_reads_nothing() {
        let source = Source::Dir(PathBuf::from("/"));
        for name in ["../etc/passwd", "", "a/b", "Hoplit", "x.json"] {
            assert_eq!(
                source.question(name).unwrap_err(),
                LabError::Unknown(name.into())
            );
        }
    }
}
