//! The lab's result files, `lab/<question>.json`: the shape the Lab page
//! draws (the contract between `springboard lab` and the page). Every
//! number is finite: a value that cannot be computed
//! is left out by the question, with a note.

use super::stats::Estimate;
use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::path::Path;

/// One question's result.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub schema: u32,
    pub question: String,
    pub title: String,
    pub games: Vec<String>,
    pub quote: String,
    pub answer: String,
    pub method: String,
    pub commit: String,
    pub command: String,
    pub date: String,
    pub games_played: usize,
    pub figures: Vec<Figure>,
    pub charts: Vec<Chart>,
    pub notes: Vec<String>,
}

/// A figure: a value with its 95% interval (none for a count) and its sample.
#[derive(Clone, Debug, Serialize)]
pub struct Figure {
    pub label: String,
    pub value: f64,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub unit: String,
    pub n: usize,
}

impl Figure {
    pub fn estimate(label: impl Into<String>, e: Estimate, unit: &str, n: usize) -> Figure {
        Figure {
            label: label.into(),
            value: e.value,
            lo: Some(e.lo),
            hi: Some(e.hi),
            unit: unit.to_string(),
            n,
        }
    }
}

/// A bar's value with its interval.
#[derive(Clone, Debug, Serialize)]
pub struct Value {
    pub value: f64,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
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

#[derive(Clone, Debug, Serialize)]
pub struct BarSeries {
    pub name: String,
    pub values: Vec<Value>,
}

#[derive(Clone, Debug, Serialize)]
pub struct HistSeries {
    pub name: String,
    pub values: Vec<f64>,
}

/// A chart: bars (categories on x, one bar per series in each) or a
/// histogram (`bins` are the edges, one more than each series' values).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Chart {
    Bars {
        id: String,
        title: String,
        y_label: String,
        categories: Vec<String>,
        series: Vec<BarSeries>,
    },
    Histogram {
        id: String,
        title: String,
        x_label: String,
        y_label: String,
        bins: Vec<f64>,
        series: Vec<HistSeries>,
    },
}

impl Chart {
    fn id(&self) -> &str {
        match self {
            Chart::Bars { id, .. } | Chart::Histogram { id, .. } => id,
        }
    }

    /// Whether the chart has anything to draw: categories (or bins) and at
    /// least one series.
    fn has_data(&self) -> bool {
        match self {
            Chart::Bars {
                categories, series, ..
            } => !categories.is_empty() && !series.is_empty(),
            Chart::Histogram { bins, series, .. } => bins.len() >= 2 && !series.is_empty(),
        }
    }

    /// Checks the chart's own rules: series as long as the categories or
    /// one shorter than the bins, every number finite.
    fn check(&self) -> Result<()> {
        let finite = |x: f64| {
            if x.is_finite() {
                Ok(())
            } else {
                bail!("chart {}: a number is not finite", self.id())
            }
        };
        match self {
            Chart::Bars {
                categories, series, ..
            } => {
                for s in series {
                    if s.values.len() != categories.len() {
                        bail!(
                            "chart {}: series {} has {} values for {} categories",
                            self.id(),
                            s.name,
                            s.values.len(),
                            categories.len()
                        );
                    }
                    for v in &s.values {
                        finite(v.value)?;
                        v.lo.map(finite).transpose()?;
                        v.hi.map(finite).transpose()?;
                    }
                }
            }
            Chart::Histogram { bins, series, .. } => {
                for b in bins {
                    finite(*b)?;
                }
                for s in series {
                    if s.values.len() + 1 != bins.len() {
                        bail!(
                            "chart {}: series {} needs one value per bin",
                            self.id(),
                            s.name
                        );
                    }
                    for v in &s.values {
                        finite(*v)?;
                    }
                }
            }
        }
        Ok(())
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

impl Report {
    /// Checks the report: every number finite, charts well formed.
    pub fn check(&self) -> Result<()> {
        for f in &self.figures {
            let ok = f.value.is_finite()
                && f.lo.is_none_or(f64::is_finite)
                && f.hi.is_none_or(f64::is_finite);
            if !ok {
                bail!("figure '{}' is not a finite number", f.label);
            }
        }
        for c in &self.charts {
            c.check()?;
        }
        Ok(())
    }

    /// Writes `<dir>/<question>.json`, leaving out the charts with nothing
    /// to draw (their questions say why in a note).
    pub fn write(&self, dir: &Path) -> Result<()> {
        let mut report = self.clone();
        report.charts.retain(Chart::has_data);
        report.write_checked(dir)
    }

    fn write_checked(&self, dir: &Path) -> Result<()> {
        self.check()?;
        std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
        let path = dir.join(format!("{}.json", self.question));
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("wrote {}", path.display());
        Ok(())
    }
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
    }
}
