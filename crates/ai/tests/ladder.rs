//! The levels' net stays the built-in one when an operator's model is shared (`tengen serve
//! --model`): the levels' ranks were measured on it. Its own test binary: the shared net is
//! the process's, set once.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use tengen_ai::nn::{self, Model};

#[test]
fn the_ladder_keeps_the_built_in_net_when_another_model_is_shared() {
    let builtin_name = Model::builtin().unwrap().name;
    let mut operators = Model::builtin().unwrap();
    operators.name = "an-operators-net".into();
    assert!(nn::share(operators));
    let shared = nn::builtin().unwrap();
    let ladder = nn::ladder().unwrap();
    assert_eq!(shared.model().name, "an-operators-net");
    assert_eq!(ladder.model().name, builtin_name);
    assert!(!Arc::ptr_eq(&shared, &ladder));
    // One evaluator for the levels, read once.
    assert!(Arc::ptr_eq(&ladder, &nn::ladder().unwrap()));
    assert_eq!(
        tengen_ai::Engine::ladder().net().unwrap().model().name,
        builtin_name
    );
}
