//! The pick loop's step: the next move of a node's order.

/// The move to search at index `i` of a node's pick order, in the loop
/// of a search over it: `ctx` what `Worker::begin_candidates` returned
/// for `deferred`. Over candidates `Worker::pick_legal`, breaking the
/// loop when no legal one remains; over a legal list `Worker::pick`
/// (`i` below the list's length).
///
/// A macro, not a method returning `Option<Move>`: that form, the same
/// logic, cost the main search 0.5% more instructions of `bench`
/// (callgrind), with the same nodes.
macro_rules! next_move {
    ($worker:expr, $pos:expr, $deferred:expr, $ctx:expr, $ply:expr, $i:expr) => {
        if $deferred {
            match $worker.pick_legal($pos, $ctx, $ply, $i) {
                Some(m) => m,
                None => break,
            }
        } else {
            $worker.pick($ply, $i)
        }
    };
}
pub(super) use next_move;
