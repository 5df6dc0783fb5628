//! The move-ordering statistics a search learns and the engine keeps
//! across the searches of a game: the history of quiet steps, the
//! continuation history and the correction history. Move ordering
//! (`ordering`) reads and updates them.

/// The number of continuation indices (`Worker::cont_index`): side and
/// mover (8 a side, the last for a trampoline placement) by destination.
pub(super) const CONT_SIZE: usize = 16 * 64;
/// No step (a null move): no continuation context.
pub(super) const NO_CONT: usize = usize::MAX;

/// The move-ordering statistics of a search: the history of quiet steps
/// (by side, mover and destination) and the continuation history
/// (`Worker::cont_index` after `Worker::cont_index`). The engine keeps
/// its main thread's across the searches of a game (a new game clears
/// them), so each move's search starts from what the last one learnt.
#[derive(Clone)]
pub(crate) struct Histories {
    pub(super) history: Vec<[i32; 64]>,
    pub(super) cont: Vec<i16>,
    /// The correction of static evaluations by side to move and pawn
    /// structure (`Worker::corrected`).
    pub(super) corr: Vec<i16>,
}

/// Correction history entries a side: a power of two.
pub(super) const CORR_ENTRIES: usize = 1 << 14;
/// A correction entry holds centipawns times `CORR_GRAIN`.
pub(super) const CORR_GRAIN: i32 = 256;
/// The bound of a correction entry: 64 centipawns.
pub(super) const CORR_MAX: i32 = 64 * CORR_GRAIN;
/// The largest weight of a new result in an entry, of `CORR_SCALE`.
pub(super) const CORR_WEIGHT: i32 = 16;
pub(super) const CORR_SCALE: i32 = 256;

impl Default for Histories {
    fn default() -> Histories {
        Histories {
            history: vec![[0; 64]; 16],
            cont: vec![0; CONT_SIZE * CONT_SIZE],
            corr: vec![0; 2 * CORR_ENTRIES],
        }
    }
}

impl Histories {
    /// Tables of no size, allocating nothing (the continuation table is
    /// 2 MB): what an engine holds while its tables are lent to a search,
    /// or after a new game; a search given them starts from fresh ones
    /// ([`Histories::or_fresh`]).
    pub(crate) fn none() -> Histories {
        Histories {
            history: Vec::new(),
            cont: Vec::new(),
            corr: Vec::new(),
        }
    }

    /// These tables, or fresh ones in place of [`Histories::none`].
    pub(super) fn or_fresh(self) -> Histories {
        if self.cont.is_empty() {
            Histories::default()
        } else {
            self
        }
    }
}
