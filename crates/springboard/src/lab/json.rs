//! The lab's result files, `lab/<question>.json`. Their one definition is
//! the web crate's (`springboard_web::lab_schema`): the lab builds those
//! types and, before it writes a file, reads its text back and checks it
//! exactly as the server does, so a file the page would refuse is an error
//! of the run, never a file. Every number is finite: a value that cannot be
//! computed is left out by the question, with a note.

use super::stats::Estimate;
use anyhow::{Context, Result};
pub use springboard_web::lab_schema::{
    BarSeries, BarValue as Value, Chart, Figure, HistogramSeries as HistSeries,
    LabResult as Report, SCHEMA,
};
use std::path::Path;

/// A figure: `e` with its interval, from a sample of `n`.
pub fn figure(label: impl Into<String>, e: Estimate, unit: &str, n: usize) -> Figure {
    Figure {
        label: label.into(),
        value: e.value,
        lo: Some(e.lo),
        hi: Some(e.hi),
        unit: unit.to_string(),
        n: n as u64,
    }
}

impl From<Estimate> for Value {
    fn from(e: Estimate) -> Value {
        Value {
            value: e.value,
            lo: Some(e.lo),
            hi: Some(e.hi),
        }
    }
}

/// A bars chart (no label on x).
pub fn bars(
    id: impl Into<String>,
    title: impl Into<String>,
    y_label: impl Into<String>,
    categories: Vec<String>,
    series: Vec<BarSeries>,
) -> Chart {
    Chart::Bars {
        id: id.into(),
        title: title.into(),
        x_label: None,
        y_label: y_label.into(),
        categories,
        series,
    }
}

/// Whether a chart has anything to draw: categories (or two bin edges)
/// and at least one series.
fn has_data(chart: &Chart) -> bool {
    match chart {
        Chart::Bars {
            categories, series, ..
        } => !categories.is_empty() && !series.is_empty(),
        Chart::Histogram { bins, series, .. } => bins.len() >= 2 && !series.is_empty(),
    }
}

/// Shares of `xs` in the bins whose edges are `edges` (the last bin takes
/// everything from its lower edge up).
pub fn shares(xs: &[f64], edges: &[f64]) -> Vec<f64> {
    let bins = edges.len().saturating_sub(1);
    let mut counts = vec![0usize; bins];
    for &x in xs {
        if let Some(i) = (0..bins).rev().find(|&i| x >= edges[i]) {
            counts[i] += 1;
        }
    }
    let n = xs.len().max(1) as f64;
    counts.into_iter().map(|c| c as f64 / n).collect()
}

/// Writes `<dir>/<question>.json`, leaving out the charts with nothing to
/// draw (their questions say why in a note). The text is read back and
/// checked as the server reads it (`LabResult::check`) before it is
/// written: a number that is not finite (written as null), an interval
/// upside down, a chart whose lengths disagree are errors of the run.
pub fn write(report: &Report, dir: &Path) -> Result<()> {
    let mut report = report.clone();
    report.charts.retain(has_data);
    report.answer = sentence(&report.answer);
    let file = format!("{}.json", report.question);
    let mut text = serde_json::to_string_pretty(&report)?;
    text.push('\n');
    check_text(&file, &text)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let path = dir.join(&file);
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// `text` with its first letter a capital: an answer is put together from
/// parts that each may come first.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Reads `text` back as the server does (a number that is not finite was
/// written as null, which it refuses) and checks it.
fn check_text(file: &str, text: &str) -> Result<()> {
    let back: Report = serde_json::from_str(text)
        .with_context(|| format!("{file}: the page would refuse it (a number not finite?)"))?;
    back.check(file)
        .with_context(|| format!("{file}: the page would refuse it"))
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock (the civil
/// calendar from days since 1970, Howard Hinnant's algorithm).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    civil_date(secs / 86_400)
}

fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_shares() {
        assert_eq!(civil_date(0), "1970-01-01");
        // 2000-03-01 is day 11017; 2026-11-29 is day 20786.
        assert_eq!(civil_date(11_017), "2000-03-01");
        assert_eq!(civil_date(20_786), "2026-11-29");
        let s = shares(&[1.0, 5.0, 12.0, 30.0], &[0.0, 10.0, 20.0]);
        assert_eq!(s, vec![0.5, 0.5]);
        assert_eq!(
            sentence("at the weak level; in the endgames"),
            "At the weak level; in the endgames"
        );
        assert_eq!(sentence(""), "");
    }

    fn report(value: f64) -> Report {
        Report {
            schema: SCHEMA,
            question: "every".to_string(),
            title: "t".to_string(),
            games: vec!["chess".to_string()],
            quote: String::new(),
            answer: "a".to_string(),
            method: "m".to_string(),
            commit: "abc".to_string(),
            command: "springboard lab every".to_string(),
            date: "2026-11-29".to_string(),
            games_played: 1,
            figures: vec![figure(
                "x",
                Estimate {
                    value,
                    lo: 0.0,
                    hi: 1.0,
                },
                "%",
                1,
            )],
            charts: vec![bars("every-empty", "t", "%", Vec::new(), Vec::new())],
            notes: Vec::new(),
        }
    }

    /// The web crate's check decides: a number that is not finite, an
    /// upside-down interval or a bad game name stop the run; an empty chart
    /// is left out.
    #[test]
    fn a_file_the_page_would_refuse_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        write(&report(0.5), dir.path()).unwrap();
        let text = std::fs::read_to_string(dir.path().join("every.json")).unwrap();
        let back: Report = serde_json::from_str(&text).unwrap();
        assert!(back.charts.is_empty());
        assert_eq!(back.answer, "A", "an answer starts with a capital");
        assert!(write(&report(f64::NAN), dir.path()).is_err());
        let mut upside = report(0.5);
        upside.figures[0].lo = Some(2.0);
        let err = format!("{:#}", write(&upside, dir.path()).unwrap_err());
        assert!(err.contains("above its high end"), "{err}");
        let mut game = report(0.5);
        game.games = vec!["shogi".to_string()];
        assert!(write(&game, dir.path()).is_err());
    }
}
