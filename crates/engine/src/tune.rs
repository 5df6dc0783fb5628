//! A logistic (Texel) tuner of the evaluation weights.
//!
//! Every integer of [`Weights`] is a parameter ([`params`] lists them in
//! the order of the struct). Those the evaluation uses linearly are tuned;
//! the others are held ([`Param::tunable`]): the phase weight of a Hoplit
//! (it changes the phase), the mobility bases (they multiply the mobility
//! weights) and the king-attack units (squared in the king-danger term).
//!
//! [`Trace::new`] evaluates each position once with the weights, then once
//! per tunable parameter with that parameter raised by [`DELTA`]: the
//! difference is the parameter's coefficient in the position's evaluation
//! (White's view, tapered by the position's phase, tempo included). The
//! model of a position's evaluation is then linear: its evaluation with
//! the weights plus the sum of coefficient times change of parameter. It is
//! exact where the evaluation is linear in the tuned weights (every tuned
//! term is a weight times a count; clamps such as "at most three squares"
//! are on the counts) and a first-order model otherwise; the engine's
//! integer divisions make it differ from `evaluate` by under a centipawn.
//! The engine keeps its constant weights: nothing here is on its path.
//!
//! [`Tuner`] then minimises the mean of `(target - sigmoid(K * eval / 400))^2`
//! with full-batch Adam, where `sigmoid(x) = 1 / (1 + e^-x)`, `target` is
//! the game result blended with `sigmoid(K * search score / 400)` by
//! [`TuneOptions::score_blend`], and `K` is fitted first ([`Tuner::fit_k`]).

use crate::eval::weights::{Weights, PHASE_TOTAL, S, WEIGHTS};
use crate::eval::white_terms;
use springboard_rules::{Color, Position};
use std::fmt::Write as _;

/// The step of a parameter when its coefficient is measured: a multiple of
/// the divisor of the king-danger term (64), so integer divisions of a
/// linear term stay exact.
pub const DELTA: i32 = 64;

/// How a field of [`Weights`] is laid out.
struct Field {
    name: &'static str,
    /// Scalars in the field (an `S` is two: mg, eg).
    len: usize,
    /// Scalars per `S` element: 2 for tapered pairs, 1 for plain integers.
    pair: bool,
    /// Entries per row for two-dimensional tables (64), else 0.
    row: usize,
    tunable: bool,
    get: fn(&mut Weights, usize) -> &mut i32,
}

fn half(s: &mut S, i: usize) -> &mut i32 {
    if i.is_multiple_of(2) {
        &mut s.0
    } else {
        &mut s.1
    }
}

/// Every field of [`Weights`], in declaration order.
#[rustfmt::skip]
const FIELDS: &[Field] = &[
    Field { name: "material", len: 12, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.material[i / 2], i) },
    Field { name: "pst_mg", len: 384, pair: false, row: 64, tunable: true, get: |w, i| &mut w.pst_mg[i / 64][i % 64] },
    Field { name: "pst_eg", len: 384, pair: false, row: 64, tunable: true, get: |w, i| &mut w.pst_eg[i / 64][i % 64] },
    Field { name: "mobility", len: 12, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.mobility[i / 2], i) },
    Field { name: "mobility_base", len: 6, pair: false, row: 0, tunable: false, get: |w, i| &mut w.mobility_base[i] },
    Field { name: "bishop_pair", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.bishop_pair, i) },
    Field { name: "rook_open_file", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.rook_open_file, i) },
    Field { name: "rook_semi_open_file", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.rook_semi_open_file, i) },
    Field { name: "doubled_pawn", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.doubled_pawn, i) },
    Field { name: "isolated_pawn", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.isolated_pawn, i) },
    Field { name: "passed_pawn", len: 16, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.passed_pawn[i / 2], i) },
    Field { name: "king_attack_unit", len: 6, pair: false, row: 0, tunable: false, get: |w, i| &mut w.king_attack_unit[i] },
    Field { name: "king_attack_scale", len: 1, pair: false, row: 0, tunable: true, get: |w, _| &mut w.king_attack_scale },
    Field { name: "pawn_shield", len: 4, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.pawn_shield[i / 2], i) },
    Field { name: "threat_by_minor", len: 12, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.threat_by_minor[i / 2], i) },
    Field { name: "threat_by_rook", len: 12, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.threat_by_rook[i / 2], i) },
    Field { name: "threat_by_king", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.threat_by_king, i) },
    Field { name: "hanging", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.hanging, i) },
    Field { name: "restricted", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.restricted, i) },
    Field { name: "threat_by_safe_pawn", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.threat_by_safe_pawn, i) },
    Field { name: "threat_by_pawn_push", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.threat_by_pawn_push, i) },
    Field { name: "passed_free", len: 6, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.passed_free[i / 2], i) },
    Field { name: "passed_defended", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.passed_defended, i) },
    Field { name: "passed_king_them", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.passed_king_them, i) },
    Field { name: "passed_king_us", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.passed_king_us, i) },
    Field { name: "kd_attacker", len: 6, pair: false, row: 0, tunable: false, get: |w, i| &mut w.kd_attacker[i] },
    Field { name: "kd_hit", len: 1, pair: false, row: 0, tunable: false, get: |w, _| &mut w.kd_hit },
    Field { name: "kd_weak_ring", len: 1, pair: false, row: 0, tunable: false, get: |w, _| &mut w.kd_weak_ring },
    Field { name: "kd_safe_check", len: 6, pair: false, row: 0, tunable: false, get: |w, i| &mut w.kd_safe_check[i] },
    Field { name: "kd_unsafe_check", len: 1, pair: false, row: 0, tunable: false, get: |w, _| &mut w.kd_unsafe_check },
    Field { name: "kd_no_queen", len: 1, pair: false, row: 0, tunable: false, get: |w, _| &mut w.kd_no_queen },
    Field { name: "kd_offset", len: 1, pair: false, row: 0, tunable: false, get: |w, _| &mut w.kd_offset },
    Field { name: "kd_scale", len: 2, pair: true, row: 0, tunable: false, get: |w, i| half(&mut w.kd_scale, i) },
    Field { name: "tempo", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.tempo, i) },
    Field { name: "hoplit.material", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.hoplit.material, i) },
    Field { name: "hoplit.reserve", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.hoplit.reserve, i) },
    Field { name: "hoplit.drop_ready", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.hoplit.drop_ready, i) },
    Field { name: "hoplit.phase", len: 1, pair: false, row: 0, tunable: false, get: |w, _| &mut w.hoplit.phase },
    Field { name: "hoplit.mobility", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.hoplit.mobility, i) },
    Field { name: "hoplit.mobility_base", len: 1, pair: false, row: 0, tunable: false, get: |w, _| &mut w.hoplit.mobility_base },
    Field { name: "hoplit.king_zone", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.hoplit.king_zone, i) },
    Field { name: "hoplit.threat", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.hoplit.threat, i) },
    Field { name: "tramp.bounce_mobility", len: 12, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.tramp.bounce_mobility[i / 2], i) },
    Field { name: "tramp.bounce_king_zone", len: 12, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.tramp.bounce_king_zone[i / 2], i) },
    Field { name: "tramp.bounce_threat", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.tramp.bounce_threat, i) },
    Field { name: "tramp.king_line", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.tramp.king_line, i) },
    Field { name: "tramp.in_hand", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.tramp.in_hand, i) },
    Field { name: "tramp.place_pending", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.tramp.place_pending, i) },
    Field { name: "jk.unplaced", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.unplaced, i) },
    Field { name: "jk.pst", len: 384, pair: false, row: 64, tunable: true, get: |w, i| &mut w.jk.pst[i / 64][i % 64] },
    Field { name: "jk.king_eg", len: 64, pair: false, row: 0, tunable: true, get: |w, i| &mut w.jk.king_eg[i] },
    Field { name: "jk.mobility", len: 12, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.mobility[i / 2], i) },
    Field { name: "jk.mobility_base", len: 6, pair: false, row: 0, tunable: false, get: |w, i| &mut w.jk.mobility_base[i] },
    Field { name: "jk.ws_attack_to_move", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.ws_attack_to_move, i) },
    Field { name: "jk.ws_attack_waiting", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.ws_attack_waiting, i) },
    Field { name: "jk.ws_ring_attack", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.ws_ring_attack, i) },
    Field { name: "jk.ws_ring_defend", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.ws_ring_defend, i) },
    Field { name: "jk.ws_file_pawn", len: 16, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.ws_file_pawn[i / 2], i) },
    Field { name: "jk.passed_pawn", len: 16, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.passed_pawn[i / 2], i) },
    Field { name: "jk.king_jumps", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.king_jumps, i) },
    Field { name: "jk.stuck_risk", len: 2, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.stuck_risk, i) },
    Field { name: "jk.king_zone", len: 12, pair: true, row: 0, tunable: true, get: |w, i| half(&mut w.jk.king_zone[i / 2], i) },
];

/// One integer of [`Weights`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its path, e.g. `material[1].eg`, `pst_mg[2][27]`, `tramp.in_hand.mg`.
    pub name: String,
    /// Whether the tuner moves it (see the module's documentation).
    pub tunable: bool,
    field: usize,
    index: usize,
}

/// Every integer of [`Weights`], in the order of the struct.
pub fn params() -> Vec<Param> {
    let mut out = Vec::new();
    for (f, field) in FIELDS.iter().enumerate() {
        for i in 0..field.len {
            let name = if field.pair {
                let part = if i.is_multiple_of(2) { "mg" } else { "eg" };
                if field.len == 2 {
                    format!("{}.{part}", field.name)
                } else {
                    format!("{}[{}].{part}", field.name, i / 2)
                }
            } else if let Some(r) = i.checked_div(field.row) {
                format!("{}[{r}][{}]", field.name, i % field.row)
            } else if field.len == 1 {
                field.name.to_string()
            } else {
                format!("{}[{i}]", field.name)
            };
            out.push(Param {
                name,
                tunable: field.tunable,
                field: f,
                index: i,
            });
        }
    }
    out
}

/// The integer of `w` that `p` names.
pub fn slot<'a>(w: &'a mut Weights, p: &Param) -> &'a mut i32 {
    (FIELDS[p.field].get)(w, p.index)
}

/// The values of every parameter of `w`, in the order of [`params`].
pub fn values(w: &Weights, ps: &[Param]) -> Vec<i32> {
    let mut w = w.clone();
    ps.iter().map(|p| *slot(&mut w, p)).collect()
}

/// The weights `base` with the parameters set to `values` (rounded).
pub fn with_values(base: &Weights, ps: &[Param], values: &[f64]) -> Weights {
    let mut w = base.clone();
    for (p, v) in ps.iter().zip(values) {
        *slot(&mut w, p) = v.round() as i32;
    }
    w
}

fn taper(s: S, phase: i32) -> f64 {
    f64::from(s.0 * phase + s.1 * (PHASE_TOTAL - phase)) / f64::from(PHASE_TOTAL)
}

/// The evaluation from White's side, tapered without rounding, tempo
/// included (the engine's `evaluate`, seen from White, up to rounding).
pub fn white_eval(pos: &Position, w: &Weights) -> f64 {
    let (score, phase) = white_terms(pos, w);
    let tempo = match pos.turn() {
        Color::White => w.tempo,
        Color::Black => -w.tempo,
    };
    taper(score + tempo, phase)
}

/// One position of the data: game result and search score from White's
/// side, its evaluation with the traced weights and its coefficients.
#[derive(Clone, Debug)]
pub struct Entry {
    pub result: f64,
    pub search_cp: f64,
    pub eval: f64,
    /// (index into the tunable parameters, coefficient), non-zero only.
    pub coefs: Vec<(u32, f32)>,
}

/// The linear trace of a data set under a weight set.
pub struct Trace {
    pub params: Vec<Param>,
    /// Indices (into `params`) of the tuned ones.
    pub tuned: Vec<usize>,
    /// The traced weights' values of every parameter.
    pub base: Vec<i32>,
    pub entries: Vec<Entry>,
}

impl Trace {
    /// An empty trace around `w`.
    pub fn new(w: &Weights) -> Trace {
        let params = params();
        let tuned = (0..params.len()).filter(|&i| params[i].tunable).collect();
        let base = values(w, &params);
        Trace {
            params,
            tuned,
            base,
            entries: Vec::new(),
        }
    }

    /// Adds a position with its game result (1, 0.5, 0 for White) and the
    /// search's score (centipawns, White's side). `w` must be the weights
    /// the trace was made with.
    pub fn add(&mut self, pos: &Position, result: f64, search_cp: f64, w: &Weights) {
        let mut probe = w.clone();
        let eval = white_eval(pos, &probe);
        let mut coefs = Vec::new();
        for (t, &i) in self.tuned.iter().enumerate() {
            let p = &self.params[i];
            *slot(&mut probe, p) += DELTA;
            let c = (white_eval(pos, &probe) - eval) / f64::from(DELTA);
            *slot(&mut probe, p) -= DELTA;
            if c != 0.0 {
                coefs.push((t as u32, c as f32));
            }
        }
        self.entries.push(Entry {
            result,
            search_cp,
            eval,
            coefs,
        });
    }

    /// The modelled evaluation of entry `e` with tuned values `theta`.
    pub fn model(&self, e: &Entry, theta: &[f64]) -> f64 {
        let mut v = e.eval;
        for &(t, c) in &e.coefs {
            let t = t as usize;
            v += f64::from(c) * (theta[t] - f64::from(self.base[self.tuned[t]]));
        }
        v
    }

    /// The tuned parameters' traced values.
    pub fn start(&self) -> Vec<f64> {
        self.tuned
            .iter()
            .map(|&i| f64::from(self.base[i]))
            .collect()
    }

    /// Tuned parameters some position uses (non-zero coefficient).
    pub fn used(&self) -> Vec<bool> {
        let mut used = vec![false; self.tuned.len()];
        for e in &self.entries {
            for &(t, _) in &e.coefs {
                used[t as usize] = true;
            }
        }
        used
    }
}

/// What the fit does.
#[derive(Clone, Copy, Debug)]
pub struct TuneOptions {
    /// Full passes of Adam over the data.
    pub epochs: usize,
    /// Adam's step (centipawns).
    pub rate: f64,
    /// Target = (1 - blend) * result + blend * sigmoid(K * search / 400).
    pub score_blend: f64,
    /// L2 pull of every tuned parameter towards its traced value, per
    /// squared centipawn (added to the loss).
    pub l2: f64,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            epochs: 2000,
            rate: 1.0,
            score_blend: 0.0,
            l2: 0.0,
        }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The fit of a trace.
pub struct Tuner<'a> {
    pub trace: &'a Trace,
    pub k: f64,
    pub options: TuneOptions,
}

impl<'a> Tuner<'a> {
    pub fn new(trace: &'a Trace, options: TuneOptions) -> Self {
        Tuner {
            trace,
            k: 1.0,
            options,
        }
    }

    fn target(&self, e: &Entry, k: f64) -> f64 {
        let b = self.options.score_blend;
        (1.0 - b) * e.result + b * sigmoid(k * e.search_cp / 400.0)
    }

    /// The mean squared error of the traced evaluations with scaling `k`.
    pub fn base_loss(&self, k: f64) -> f64 {
        let n = self.trace.entries.len().max(1) as f64;
        self.trace
            .entries
            .iter()
            .map(|e| (self.target(e, k) - sigmoid(k * e.eval / 400.0)).powi(2))
            .sum::<f64>()
            / n
    }

    /// Fits K to the traced evaluations (golden-section search on 0.05..10).
    pub fn fit_k(&mut self) -> f64 {
        let (mut a, mut b) = (0.05_f64, 10.0_f64);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..60 {
            let c = b - g * (b - a);
            let d = a + g * (b - a);
            if self.base_loss(c) < self.base_loss(d) {
                b = d;
            } else {
                a = c;
            }
        }
        self.k = (a + b) / 2.0;
        self.k
    }

    /// The loss (mean squared error plus the L2 pull) of `theta` and its
    /// gradient.
    pub fn loss_and_gradient(&self, theta: &[f64]) -> (f64, Vec<f64>) {
        let tr = self.trace;
        let n = tr.entries.len().max(1) as f64;
        let k = self.k;
        let mut grad = vec![0.0; theta.len()];
        let mut loss = 0.0;
        for e in &tr.entries {
            let s = sigmoid(k * tr.model(e, theta) / 400.0);
            let diff = s - self.target(e, k);
            loss += diff * diff;
            let g = 2.0 * diff * s * (1.0 - s) * k / 400.0 / n;
            for &(t, c) in &e.coefs {
                grad[t as usize] += g * f64::from(c);
            }
        }
        loss /= n;
        if self.options.l2 > 0.0 {
            for (t, (&v, gr)) in theta.iter().zip(grad.iter_mut()).enumerate() {
                let d = v - f64::from(tr.base[tr.tuned[t]]);
                loss += self.options.l2 * d * d;
                *gr += 2.0 * self.options.l2 * d;
            }
        }
        (loss, grad)
    }

    /// Runs Adam from the traced values; `report(epoch, loss)` is called
    /// every 100 epochs. Returns the tuned values of the tuned parameters.
    pub fn run(&self, mut report: impl FnMut(usize, f64)) -> Vec<f64> {
        let mut theta = self.trace.start();
        let (b1, b2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
        let mut m = vec![0.0; theta.len()];
        let mut v = vec![0.0; theta.len()];
        for epoch in 1..=self.options.epochs {
            let (loss, grad) = self.loss_and_gradient(&theta);
            if epoch % 100 == 0 || epoch == 1 {
                report(epoch, loss);
            }
            let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
            for t in 0..theta.len() {
                if grad[t] == 0.0 && m[t] == 0.0 {
                    continue;
                }
                m[t] = b1 * m[t] + (1.0 - b1) * grad[t];
                v[t] = b2 * v[t] + (1.0 - b2) * grad[t] * grad[t];
                theta[t] -= self.options.rate * (m[t] / c1) / ((v[t] / c2).sqrt() + eps);
            }
        }
        theta
    }

    /// Every parameter's value after the fit: the traced ones with the
    /// tuned ones replaced by `theta` (rounded later).
    pub fn all_values(&self, theta: &[f64]) -> Vec<f64> {
        let tr = self.trace;
        let mut all: Vec<f64> = tr.base.iter().map(|&v| f64::from(v)).collect();
        for (t, &i) in tr.tuned.iter().enumerate() {
            all[i] = theta[t];
        }
        all
    }
}

fn pairs(v: &[S]) -> String {
    let items: Vec<String> = v.iter().map(s).collect();
    format!("[{}]", items.join(", "))
}

/// A square table, eight values a row, the rows indented by `indent`
/// plus four spaces and the closing bracket by `indent`.
fn table(indent: &str, t: &[i32; 64]) -> String {
    let mut o = String::from("[\n");
    for row in t.chunks(8) {
        let items: Vec<String> = row.iter().map(|v| format!("{v:4}")).collect();
        let _ = writeln!(o, "{indent}    {},", items.join(","));
    }
    o.push_str(indent);
    o.push(']');
    o
}

/// One table a role, each as [`table`] writes it, indented by `indent`.
fn tables(indent: &str, ts: &[[i32; 64]; 6]) -> String {
    let mut o = String::from("[\n");
    for t in ts {
        let inner = format!("{indent}    ");
        let _ = writeln!(o, "{inner}{},", table(&inner, t));
    }
    o.push_str(indent);
    o.push(']');
    o
}

fn s(v: &S) -> String {
    format!("S({}, {})", v.0, v.1)
}

fn debug<T: std::fmt::Debug>(v: &T) -> String {
    format!("{v:?}")
}

/// Writes `field: value,` on its own line, indented by `$indent`, for each
/// named field of `$new` that differs from `$base`, the value written by
/// the function given with it.
macro_rules! changed_fields {
    ($o:expr, $indent:expr, $new:expr, $base:expr; $($field:ident: $write:expr),* $(,)?) => {
        $(if $new.$field != $base.$field {
            let _ = writeln!($o, "{}{}: {},", $indent, stringify!($field), $write(&$new.$field));
        })*
    };
}

/// A game's sub-set of `Weights` (`hoplit`, `tramp`, `jk`) when it differs
/// from the base's: `field: Type { changed, ..WEIGHTS.field },` with the
/// changed values written by [`changed_fields!`] one level deeper.
macro_rules! changed_subset {
    ($o:expr, $new:expr, $base:expr, $sub:ident: $ty:ident; $($field:ident: $write:expr),* $(,)?) => {
        if $new.$sub != $base.$sub {
            let _ = writeln!($o, "    {}: {} {{", stringify!($sub), stringify!($ty));
            changed_fields!($o, "        ", $new.$sub, $base.$sub; $($field: $write),*);
            let _ = writeln!($o, "        ..WEIGHTS.{}\n    }},", stringify!($sub));
        }
    };
}

/// `w` as the Rust source of a module of the crate (`eval/weights/tuned/<game>.rs`):
/// `pub const NAME: Weights = Weights { changed, ..WEIGHTS };` with only the
/// fields that differ from [`WEIGHTS`] (each game's sub-set likewise, with
/// the rest from `WEIGHTS`' sub-set), in the layout of `eval/weights.rs`.
pub fn rust_source(name: &str, w: &Weights) -> String {
    let b = &WEIGHTS;
    let mut o = String::new();
    changed_fields!(o, "    ", w, b;
        material: pairs,
        pst_mg: |t| tables("    ", t),
        pst_eg: |t| tables("    ", t),
        mobility: pairs,
        mobility_base: debug,
        bishop_pair: s,
        rook_open_file: s,
        rook_semi_open_file: s,
        doubled_pawn: s,
        isolated_pawn: s,
        passed_pawn: pairs,
        king_attack_unit: debug,
        king_attack_scale: debug,
        pawn_shield: pairs,
        threat_by_minor: pairs,
        threat_by_rook: pairs,
        threat_by_king: s,
        hanging: s,
        restricted: s,
        threat_by_safe_pawn: s,
        threat_by_pawn_push: s,
        passed_free: pairs,
        passed_defended: s,
        passed_king_them: s,
        passed_king_us: s,
        kd_attacker: debug,
        kd_hit: debug,
        kd_weak_ring: debug,
        kd_safe_check: debug,
        kd_unsafe_check: debug,
        kd_no_queen: debug,
        kd_offset: debug,
        kd_scale: s,
        tempo: s,
    );
    changed_subset!(o, w, b, hoplit: HoplitWeights;
        material: s,
        reserve: s,
        drop_ready: s,
        phase: debug,
        mobility: s,
        mobility_base: debug,
        king_zone: s,
        threat: s,
    );
    changed_subset!(o, w, b, tramp: TrampolineWeights;
        bounce_mobility: pairs,
        bounce_king_zone: pairs,
        bounce_threat: s,
        king_line: s,
        in_hand: s,
        place_pending: s,
    );
    changed_subset!(o, w, b, jk: JumpingKingWeights;
        unplaced: s,
        pst: |t| tables("        ", t),
        king_eg: |t| table("        ", t),
        mobility: pairs,
        mobility_base: debug,
        ws_attack_to_move: s,
        ws_attack_waiting: s,
        ws_ring_attack: s,
        ws_ring_defend: s,
        ws_file_pawn: pairs,
        passed_pawn: pairs,
        king_jumps: s,
        stuck_risk: s,
        king_zone: pairs,
    );
    o.push_str("    ..WEIGHTS\n};\n");
    let mut head = String::new();
    head.push_str("//! Weights written by `springboard tune` (docs/engine.md, \"The tuner\"):\n");
    head.push_str("//! the values that differ from `eval/weights.rs`; the rest are its own.\n\n");
    for ty in ["HoplitWeights", "JumpingKingWeights", "TrampolineWeights"] {
        if o.contains(&format!("{ty} {{")) {
            let _ = writeln!(head, "use crate::eval::weights::{ty};");
        }
    }
    head.push_str("use crate::eval::weights::Weights;\n");
    if o.contains("S(") {
        head.push_str("use crate::eval::weights::S;\n");
    }
    head.push_str("use crate::eval::weights::WEIGHTS;\n\n");
    let _ = writeln!(
        head,
        "#[rustfmt::skip]\npub const {name}: Weights = Weights {{"
    );
    head + &o
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::Variant;

    /// Positions of pseudo-random legal games of `variant`.
    fn positions(variant: Variant, games: usize, plies: usize) -> Vec<Position> {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % n
        };
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::startpos(variant);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[next(moves.len())]);
                out.push(pos.clone());
            }
        }
        out
    }

    #[test]
    fn params_cover_every_integer_once() {
        let ps = params();
        // 12 + 2*384 + 12 + 6 + 10 + 16 + 6 + 1 + 4 (FIDE), 12 + 12 + 2 + 2
        // + 2 + 2 + 2 (threats), 6 + 2 + 2 + 2 (passed pawns), 6 + 1 + 1 +
        // 6 + 1 + 1 + 1 + 2 (king danger), 2 (tempo), 14 (Hoplit), 32
        // (trampolines), 2 + 384 + 64 + 12 + 6 + 8 + 32 + 4 + 12 (JK).
        assert_eq!(ps.len(), 835 + 34 + 12 + 19 + 2 + 14 + 32 + 524);
        let names: std::collections::HashSet<_> = ps.iter().map(|p| &p.name).collect();
        assert_eq!(names.len(), ps.len());
        // Each parameter moves its own integer only.
        let base = values(&WEIGHTS, &ps);
        for (i, p) in ps.iter().enumerate().step_by(7) {
            let mut w = WEIGHTS.clone();
            *slot(&mut w, p) += 1;
            let v = values(&w, &ps);
            for (j, (a, b)) in v.iter().zip(&base).enumerate() {
                assert_eq!(*a - *b, i32::from(i == j), "{} vs {}", p.name, ps[j].name);
            }
        }
        assert_eq!(ps[1].name, "material[0].eg");
        assert_eq!(base[1], WEIGHTS.material[0].1);
    }

    /// The integers of a source's body, in order.
    fn integers(src: &str) -> Vec<i32> {
        let body = src.split_once("Weights {").unwrap().1;
        let mut nums = Vec::new();
        let mut cur = String::new();
        for ch in body.chars().chain(std::iter::once(' ')) {
            if ch.is_ascii_digit() || (ch == '-' && cur.is_empty()) {
                cur.push(ch);
            } else {
                if !cur.is_empty() && cur != "-" {
                    nums.push(cur.parse::<i32>().unwrap());
                }
                cur.clear();
            }
        }
        nums
    }

    #[test]
    fn rust_source_lists_the_changed_values_only() {
        // The base itself: nothing but `..WEIGHTS`.
        let src = rust_source("TUNED", &WEIGHTS);
        assert!(src.ends_with("pub const TUNED: Weights = Weights {\n    ..WEIGHTS\n};\n"));
        assert!(integers(&src).is_empty(), "{src}");
        // Changed fields are written whole, in the order of `Weights`,
        // each sub-set with the rest of its base.
        let mut w = WEIGHTS.clone();
        w.material[2].1 += 3;
        w.tempo.0 -= 1;
        w.hoplit.reserve.1 += 5;
        w.jk.king_eg[9] += 7;
        let src = rust_source("TUNED", &w);
        let mut want = Vec::new();
        want.extend(w.material.iter().flat_map(|s| [s.0, s.1]));
        want.extend([w.tempo.0, w.tempo.1]);
        want.extend([w.hoplit.reserve.0, w.hoplit.reserve.1]);
        want.extend(w.jk.king_eg);
        assert_eq!(integers(&src), want, "{src}");
        for part in ["..WEIGHTS.hoplit\n", "..WEIGHTS.jk\n", "    ..WEIGHTS\n};"] {
            assert!(src.contains(part), "{part} in {src}");
        }
        assert!(
            !src.contains("tramp:") && !src.contains("TrampolineWeights"),
            "{src}"
        );
    }

    #[test]
    fn the_tuned_files_are_the_tuners_output() {
        use crate::eval::tuned::{HOPLIT, JUMPING_KING, TRAMPOLINE};
        let files = [
            (
                "HOPLIT",
                &HOPLIT,
                include_str!("eval/weights/tuned/hoplit.rs"),
            ),
            (
                "JUMPING_KING",
                &JUMPING_KING,
                include_str!("eval/weights/tuned/jumpingking.rs"),
            ),
            (
                "TRAMPOLINE",
                &TRAMPOLINE,
                include_str!("eval/weights/tuned/trampoline.rs"),
            ),
        ];
        for (name, w, file) in files {
            assert_eq!(rust_source(name, w), file, "{name}");
        }
    }

    #[test]
    fn the_trace_reproduces_the_evaluation() {
        // The linear model at changed weights equals the evaluation with
        // those weights (the tuned terms are linear in their weights).
        for variant in Variant::ALL {
            let ps = positions(variant, 2, 40);
            let mut trace = Trace::new(&WEIGHTS);
            for p in &ps {
                trace.add(p, 0.5, 0.0, &WEIGHTS);
            }
            let mut theta = trace.start();
            for (t, v) in theta.iter_mut().enumerate() {
                *v += ((t * 7919) % 11) as f64 - 5.0;
            }
            let all = Tuner::new(&trace, TuneOptions::default()).all_values(&theta);
            let w = with_values(&WEIGHTS, &trace.params, &all);
            for (p, e) in ps.iter().zip(&trace.entries) {
                let want = white_eval(p, &w);
                let got = trace.model(e, &theta);
                // Up to the rounding of the king-danger term (x / 64).
                assert!(
                    (want - got).abs() < 1.0,
                    "{variant} {}: {want} vs {got}",
                    p.to_fen()
                );
                let stm = if p.turn() == Color::White { 1.0 } else { -1.0 };
                let engine = f64::from(crate::eval::evaluate_with(p, &w)) * stm;
                assert!(
                    (engine - want).abs() <= 2.0,
                    "{variant}: {engine} vs {want}"
                );
            }
        }
    }

    fn synthetic(variant: Variant, truth: &Weights) -> Trace {
        let ps = positions(variant, 24, 50);
        let mut trace = Trace::new(&WEIGHTS);
        for p in &ps {
            let r = sigmoid(white_eval(p, truth) / 400.0);
            trace.add(p, r, 0.0, &WEIGHTS);
        }
        trace
    }

    #[test]
    fn the_gradient_is_the_derivative_of_the_loss() {
        let mut truth = WEIGHTS.clone();
        truth.material[1] = S(400, 330);
        let trace = synthetic(Variant::Trampoline, &truth);
        let mut tuner = Tuner::new(
            &trace,
            TuneOptions {
                l2: 1e-6,
                score_blend: 0.0,
                ..TuneOptions::default()
            },
        );
        tuner.k = 1.3;
        let theta = trace.start();
        let (_, grad) = tuner.loss_and_gradient(&theta);
        let used = trace.used();
        let mut checked = 0;
        for t in (0..theta.len()).filter(|&t| used[t]).step_by(5) {
            let h = 1e-3;
            let mut up = theta.clone();
            up[t] += h;
            let mut down = theta.clone();
            down[t] -= h;
            let numeric =
                (tuner.loss_and_gradient(&up).0 - tuner.loss_and_gradient(&down).0) / (2.0 * h);
            let scale = numeric.abs().max(grad[t].abs()).max(1e-12);
            assert!(
                (numeric - grad[t]).abs() / scale < 1e-4,
                "{}: {numeric} vs {}",
                trace.params[trace.tuned[t]].name,
                grad[t]
            );
            checked += 1;
        }
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn a_known_weight_set_is_recovered() {
        // Results made by the sigmoid of a known weight set (K = 1): the
        // fit from the engine's weights finds that set's evaluations, and
        // K comes out 1.
        for variant in [Variant::Trampoline, Variant::JumpingKing] {
            let mut truth = WEIGHTS.clone();
            truth.material[1] = S(380, 250);
            truth.tempo = S(40, 0);
            truth.tramp.bounce_mobility[2] = S(9, 1);
            truth.jk.ws_attack_waiting = S(60, 200);
            truth.jk.mobility[1] = S(9, 2);
            let trace = synthetic(variant, &truth);
            let tuner = Tuner::new(
                &trace,
                TuneOptions {
                    epochs: 3000,
                    rate: 2.0,
                    ..TuneOptions::default()
                },
            );
            // K of the traced (wrong) weights is not 1; with the truth it is.
            let before = tuner.base_loss(1.0);
            assert!(before > 1e-4, "{variant}: {before}");
            let theta = tuner.run(|_, _| {});
            let (after, _) = tuner.loss_and_gradient(&theta);
            assert!(after < before / 50.0, "{variant}: {before} -> {after}");
            // Every modelled evaluation is within a few centipawns of the truth.
            let ps = positions(variant, 24, 50);
            let mut worst: f64 = 0.0;
            for (p, e) in ps.iter().zip(&trace.entries) {
                worst = worst.max((trace.model(e, &theta) - white_eval(p, &truth)).abs());
            }
            assert!(worst < 15.0, "{variant}: off by {worst}");
            let tempo = trace
                .params
                .iter()
                .position(|p| p.name == "tempo.mg")
                .unwrap();
            let t = trace.tuned.iter().position(|&i| i == tempo).unwrap();
            assert!(
                (theta[t] - 40.0).abs() < 5.0,
                "{variant}: tempo {}",
                theta[t]
            );
            // Traced with the truth itself, K fits to 1.
            let ps = positions(variant, 24, 50);
            let mut exact = Trace::new(&truth);
            for (p, e) in ps.iter().zip(&trace.entries) {
                exact.add(p, e.result, 0.0, &truth);
            }
            let k = Tuner::new(&exact, TuneOptions::default()).fit_k();
            assert!((k - 1.0).abs() < 0.01, "{variant}: K {k}");
        }
    }
}
