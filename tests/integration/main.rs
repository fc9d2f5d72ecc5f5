//! t
#[test] fn t(){}
