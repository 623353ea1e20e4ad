//! `tengen`: the command line of the Tengen Go server.

fn main() {}
