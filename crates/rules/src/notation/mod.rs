//! Move notation: the long form of RULINGS N1-N6 (UCI) and SAN.

pub mod san;
pub mod seed;
pub mod uci;
