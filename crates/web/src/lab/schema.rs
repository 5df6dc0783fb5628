//! The shape of a lab result, `lab/<question>.json` as `springboard lab`
//! writes it (the contract in docs/play-server.md, "The lab"): serde
//! structs that refuse unknown fields, and the checks serde cannot make
//! (the schema's version, the file's name, the games, the intervals, a
//! chart's lengths). A file that passes is served as these structs
//! serialise it, so the page reads only this shape.

use serde::{Deserialize, Serialize};
use springboard_rules::Variant;

/// The version of the shape this server reads.
pub const SCHEMA: u32 = 1;

/// One question's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabResult {
    pub schema: u32,
    /// The question's name: the file's name without `.json`.
    pub question: String,
    pub title: String,
    /// The games it measures, by the site's variant names.
    pub games: Vec<String>,
    /// The words of the rule page it answers (may be empty).
    pub quote: String,
    pub answer: String,
    pub method: String,
    /// The engine's commit the games were played with.
    pub commit: String,
    /// The command that reproduces it.
    pub command: String,
    /// When it was run, `YYYY-MM-DD`.
    pub date: String,
    pub games_played: u64,
    pub figures: Vec<Figure>,
    pub charts: Vec<Chart>,
    #[serde(default)]
    pub notes: Vec<String>,
}

/// A measured figure with its 95% interval (none for a count).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    pub label: String,
    pub value: f64,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub unit: String,
    /// The sample it comes from.
    pub n: u64,
}

/// A chart: bars with error bars, or a histogram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Chart {
    /// Categories on x, one bar per series in each, each with its interval.
    Bars {
        id: String,
        title: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        x_label: Option<String>,
        y_label: String,
        categories: Vec<String>,
        series: Vec<BarSeries>,
    },
    /// `bins` are the edges, one more than each series' values.
    Histogram {
        id: String,
        title: String,
        x_label: String,
        y_label: String,
        bins: Vec<f64>,
        series: Vec<HistogramSeries>,
    },
}

impl Chart {
    pub fn id(&self) -> &str {
        match self {
            Chart::Bars { id, .. } | Chart::Histogram { id, .. } => id,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarSeries {
    pub name: String,
    pub values: Vec<BarValue>,
}

/// A bar's height and its 95% interval (none where it has none).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarValue {
    pub value: f64,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistogramSeries {
    pub name: String,
    pub values: Vec<f64>,
}

/// What is wrong with a file that parses as JSON of the right fields.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShapeError {
    #[error("schema {found}; this server reads schema {SCHEMA}")]
    Schema { found: u32 },
    #[error("the question is '{found}' in the file {file}: a question's file is <question>.json")]
    Name { found: String, file: String },
    #[error("the question '{0}' is not a name of lower-case letters, digits and '-'")]
    BadQuestion(String),
    #[error("the game '{0}' is none of the site's ({names})", names = Variant::names())]
    Game(String),
    #[error("no games")]
    NoGames,
    #[error("the date '{0}' is not YYYY-MM-DD")]
    Date(String),
    #[error("{what}: the interval's low end {lo} is above its high end {hi}")]
    Interval { what: String, lo: f64, hi: f64 },
    #[error("{what}: an interval has one end only")]
    HalfInterval { what: String },
    #[error("the chart id '{0}' is empty or not of letters, digits, '-' and '_'")]
    ChartId(String),
    #[error("the chart id '{0}' is used twice")]
    DuplicateChart(String),
    #[error("chart '{id}': {reason}")]
    Chart { id: String, reason: String },
}

/// Whether `name` may name a question (and so a file and a URL).
pub fn is_question_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 40
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn is_chart_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 80
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn is_date(date: &str) -> bool {
    let b = date.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

fn interval(what: impl Fn() -> String, lo: Option<f64>, hi: Option<f64>) -> Result<(), ShapeError> {
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo > hi => Err(ShapeError::Interval {
            what: what(),
            lo,
            hi,
        }),
        (Some(_), None) | (None, Some(_)) => Err(ShapeError::HalfInterval { what: what() }),
        _ => Ok(()),
    }
}

impl LabResult {
    /// The checks of the shape serde does not make; `file` is the name
    /// the result was read from (`hoplit.json`).
    pub fn check(&self, file: &str) -> Result<(), ShapeError> {
        if self.schema != SCHEMA {
            return Err(ShapeError::Schema { found: self.schema });
        }
        if !is_question_name(&self.question) {
            return Err(ShapeError::BadQuestion(self.question.clone()));
        }
        if file.strip_suffix(".json") != Some(self.question.as_str()) {
            return Err(ShapeError::Name {
                found: self.question.clone(),
                file: file.to_string(),
            });
        }
        if self.games.is_empty() {
            return Err(ShapeError::NoGames);
        }
        if let Some(g) = self
            .games
            .iter()
            .find(|g| Variant::from_name(g).is_none_or(|v| v.name() != g.as_str()))
        {
            return Err(ShapeError::Game(g.clone()));
        }
        if !is_date(&self.date) {
            return Err(ShapeError::Date(self.date.clone()));
        }
        for f in &self.figures {
            interval(|| format!("figure '{}'", f.label), f.lo, f.hi)?;
        }
        let mut ids = std::collections::HashSet::new();
        for chart in &self.charts {
            if !is_chart_id(chart.id()) {
                return Err(ShapeError::ChartId(chart.id().to_string()));
            }
            if !ids.insert(chart.id()) {
                return Err(ShapeError::DuplicateChart(chart.id().to_string()));
            }
            chart.check()?;
        }
        Ok(())
    }
}

impl Chart {
    fn check(&self) -> Result<(), ShapeError> {
        let fail = |reason: String| ShapeError::Chart {
            id: self.id().to_string(),
            reason,
        };
        match self {
            Chart::Bars {
                categories, series, ..
            } => {
                if categories.is_empty() || series.is_empty() {
                    return Err(fail("a bar chart needs categories and series".into()));
                }
                for s in series {
                    if s.values.len() != categories.len() {
                        return Err(fail(format!(
                            "the series '{}' has {} values for {} categories",
                            s.name,
                            s.values.len(),
                            categories.len()
                        )));
                    }
                    for (v, c) in s.values.iter().zip(categories) {
                        interval(
                            || format!("chart '{}', {}, {c}", self.id(), s.name),
                            v.lo,
                            v.hi,
                        )?;
                    }
                }
            }
            Chart::Histogram { bins, series, .. } => {
                if bins.len() < 2 || series.is_empty() {
                    return Err(fail(
                        "a histogram needs two bin edges or more and series".into(),
                    ));
                }
                if bins.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(fail("the bin edges do not increase".into()));
                }
                for s in series {
                    if s.values.len() + 1 != bins.len() {
                        return Err(fail(format!(
                            "the series '{}' has {} values for {} bin edges (one more than the values)",
                            s.name,
                            s.values.len(),
                            bins.len()
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hoplit() -> serde_json::Value {
        serde_json::json!({
            "schema": 1, "question": "hoplit", "title": "Hoplit Chess", "games": ["hoplit", "chess"],
            "quote": "The Hoplit's value is 3", "answer": "About 2.7.", "method": "Odds matches.",
            "commit": "3a7931c", "command": "springboard lab hoplit", "date": "2026-11-29",
            "games_played": 400,
            "figures": [{"label": "Hoplit", "value": 2.7, "lo": 2.3, "hi": 3.1, "unit": "pawns", "n": 400},
                        {"label": "Drops", "value": 12.0, "lo": null, "hi": null, "unit": "games", "n": 400}],
            "charts": [
                {"id": "hoplit-values", "kind": "bars", "title": "Values", "y_label": "pawns",
                 "categories": ["opening", "endgame"],
                 "series": [{"name": "Hoplit", "values": [{"value": 2.9, "lo": 2.5, "hi": 3.3},
                                                          {"value": 2.1, "lo": null, "hi": null}]}]},
                {"id": "hoplit-drop-ply", "kind": "histogram", "title": "Drops", "x_label": "ply",
                 "y_label": "share", "bins": [0.0, 10.0, 20.0], "series": [{"name": "Hoplit", "values": [0.5, 0.5]}]}
            ],
            "notes": []
        })
    }

    fn checked(v: serde_json::Value) -> Result<LabResult, String> {
        let r: LabResult = serde_json::from_value(v).map_err(|e| e.to_string())?;
        r.check("hoplit.json").map_err(|e| e.to_string())?;
        Ok(r)
    }

    #[test]
    fn the_contracts_example_passes_and_serialises_back_the_same() {
        let r = checked(hoplit()).unwrap();
        assert_eq!(serde_json::to_value(&r).unwrap(), hoplit());
    }

    #[test]
    fn each_wrong_shape_is_named() {
        type Change = fn(&mut serde_json::Value);
        let cases: [(&str, Change, &str); 10] = [
            ("schema", |v| v["schema"] = 2.into(), "schema 2"),
            (
                "name",
                |v| v["question"] = "trampoline".into(),
                "<question>.json",
            ),
            (
                "unknown field",
                |v| v["colour"] = "red".into(),
                "unknown field `colour`",
            ),
            (
                "game",
                |v| v["games"][1] = "shogi".into(),
                "the game 'shogi'",
            ),
            (
                "kind",
                |v| v["charts"][0]["kind"] = "pie".into(),
                "unknown variant `pie`",
            ),
            (
                "interval",
                |v| v["figures"][0]["lo"] = 9.into(),
                "above its high end",
            ),
            (
                "half",
                |v| v["figures"][0]["hi"] = serde_json::Value::Null,
                "one end only",
            ),
            (
                "bins",
                |v| v["charts"][1]["bins"] = serde_json::json!([0, 10]),
                "2 bin edges",
            ),
            (
                "bars",
                |v| v["charts"][0]["categories"] = serde_json::json!(["a"]),
                "2 values for 1 categories",
            ),
            (
                "date",
                |v| v["date"] = "29/11/2026".into(),
                "not YYYY-MM-DD",
            ),
        ];
        for (what, change, expected) in cases {
            let mut v = hoplit();
            change(&mut v);
            let err = checked(v).unwrap_err();
            assert!(err.contains(expected), "{what}: {err}");
        }
    }

    #[test]
    fn a_chart_id_is_unique_in_its_file() {
        let mut v = hoplit();
        v["charts"][1]["id"] = "hoplit-values".into();
        assert!(checked(v).unwrap_err().contains("used twice"));
    }
}
