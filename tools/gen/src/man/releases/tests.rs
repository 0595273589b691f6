// SPDX-License-Identifier: MIT
use super::*;

#[test]
fn prefixes_select_and_exclude() {
    let spec = ["IORING_REGISTER_", "!IORING_REGISTER_SRC_"];
    assert!(selected("IORING_REGISTER_BUFFERS", &spec));
    assert!(!selected("IORING_REGISTER_SRC_REGISTERED", &spec));
    assert!(!selected("IORING_SETUP_SQPOLL", &spec));
}
