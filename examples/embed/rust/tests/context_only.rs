//! A program that makes contexts but calls no entry still links: the
//! runtime's symbols come from the Weir libraries the crate links (the
//! crate must be linked: here it is only named).

use weir_embed_example as _;

#[test]
fn a_context_without_entries() {
    let mut c = weir_rs::Context::new().unwrap();
    assert!(c.last_error().is_none());
    c.release();
    assert_eq!(weir_rs::runtime_version(), "0.1.0");
}
