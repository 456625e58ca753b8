//! Helpers the integration tests share: a watched child run, the real-world corpus, hostile
//! corpus generators, the regress runs.

pub mod hostile_gen;
pub mod realworld;
pub mod regress;
pub mod watchdog;
