//! End-to-end tests through the router, in process (`oneshot`), plus one real server on port 0.
//! One test binary (see `tests/http/`).

mod http {
    pub mod analyze;
    pub mod attack;
    pub mod bad_input;
    pub mod catalog;
    pub mod cli;
    pub mod concealment;
    pub mod contract;
    pub mod cover;
    pub mod damage;
    pub mod flanking;
    pub mod french;
    pub mod fuzz;
    pub mod import_foundry;
    pub mod import_foundry_maps;
    pub mod import_uvtt;
    pub mod initiative;
    pub mod maneuver;
    pub mod mounted;
    pub mod movement;
    pub mod openapi;
    pub mod ops;
    pub mod playground;
    pub mod range;
    pub mod reach;
    pub mod readme;
    pub mod schema;
    pub mod server;
    pub mod support;
    pub mod svg;
}
