//! Perft: counting the leaves of the legal move tree, the test of move
//! generation. Counts bulk at the last ply (the length of the move list).

use crate::moves::{Move, MoveList};
use crate::position::Position;

fn inner(pos: &Position, depth: u32, buffers: &mut [MoveList]) -> u64 {
    let (list, rest) = buffers.split_first_mut().expect("a buffer per ply");
    if depth == 1 {
        return pos.count_legal_moves_with(list);
    }
    list.clear();
    pos.legal_moves_into(list);
    let mut nodes = 0;
    for &m in list.iter() {
        let mut next = pos.clone();
        next.play(m);
        nodes += inner(&next, depth - 1, rest);
    }
    nodes
}

/// The number of leaf nodes `depth` plies deep (1 at depth 0).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<MoveList> = (0..depth).map(|_| MoveList::with_capacity(256)).collect();
    inner(pos, depth, &mut buffers)
}

/// Perft split by the first move, in move-generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(m);
            (m, perft(&next, depth - 1))
        })
        .collect()
}
