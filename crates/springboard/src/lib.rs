//! The protocol front ends of `springboard` (UCI and XBoard), the search
//! thread they share and the set-up of the logs, as a library: the
//! `springboard` binary speaks them on standard input and output, and the
//! fuzz targets (fuzz/, see docs/fuzzing.md) drive a session line by line.

#![forbid(unsafe_code)]

pub mod logs;
pub mod searcher;
pub mod uci;
pub mod xboard;
