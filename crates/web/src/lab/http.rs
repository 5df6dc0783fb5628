//! The lab's routes: `GET /api/lab`, the list of the questions (each
//! question's name, title, games, answer, date and games played, and each
//! file that cannot be served with its error), and `GET
//! /api/lab/{question}`, one question's whole result (404 for an unknown
//! question, 500 with the file's error for a bad one).

use super::schema::LabResult;
use super::source::{LabError, Listing, Source};
use super::LabCtx;
use crate::error::ApiError;
use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;

/// A question as the list shows it.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub question: String,
    pub title: String,
    pub games: Vec<String>,
    pub answer: String,
    pub date: String,
    pub games_played: u64,
}

/// A file the list leaves out, and why.
#[derive(Debug, Serialize)]
pub struct FileError {
    pub file: String,
    pub error: String,
}

/// `GET /api/lab`.
#[derive(Debug, Serialize)]
pub struct LabList {
    pub questions: Vec<Summary>,
    pub errors: Vec<FileError>,
}

impl From<LabError> for ApiError {
    fn from(e: LabError) -> ApiError {
        match e {
            LabError::Unknown(_) => ApiError::NotFound(e.to_string()),
            LabError::Invalid { .. } | LabError::TooLarge { .. } | LabError::Read { .. } => {
                ApiError::Internal(e.to_string())
            }
        }
    }
}

/// Runs `f` on the source where it may block (a directory's files).
async fn reading<T: Send + 'static>(
    source: &Source,
    f: impl FnOnce(&Source) -> Result<T, LabError> + Send + 'static,
) -> Result<T, ApiError> {
    let source = source.clone();
    tokio::task::spawn_blocking(move || f(&source))
        .await
        .map_err(|e| ApiError::Internal(format!("reading the lab's results failed: {e}")))?
        .map_err(ApiError::from)
}

pub(super) async fn list(State(lab): State<LabCtx>) -> Result<Json<LabList>, ApiError> {
    let Listing { results, errors } = reading(&lab.source, Source::list).await?;
    Ok(Json(LabList {
        questions: results
            .into_iter()
            .map(|r| Summary {
                question: r.question,
                title: r.title,
                games: r.games,
                answer: r.answer,
                date: r.date,
                games_played: r.games_played,
            })
            .collect(),
        errors: errors
            .into_iter()
            .map(|(file, e)| FileError {
                file,
                error: e.to_string(),
            })
            .collect(),
    }))
}

pub(super) async fn question(
    State(lab): State<LabCtx>,
    Path(question): Path<String>,
) -> Result<Json<LabResult>, ApiError> {
    Ok(Json(
        reading(&lab.source, move |s| s.question(&question)).await?,
    ))
}
