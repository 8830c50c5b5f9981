//! The release ELF check: hot code is ARM in IWRAM and never calls into ROM.

use e2e::elf;
use gbarom::iwram::{IwramError, check};

#[test]
fn product_hot_code_stays_in_iwram() {
    let report = check(&elf("terrain", false), &["8recenter", "7rebuild", "10regenerate"]).unwrap();
    assert!(report.functions.len() >= 3);
    assert!(report.used <= 28_416, "IWRAM used: {}", report.used);
}

#[test]
fn a_call_back_into_rom_is_caught() {
    match check(&elf("iwram_calls_rom", true), &["hot"]) {
        Err(IwramError::Problems { problems, .. }) => {
            assert!(problems.iter().any(|p| p.contains("veneer") || p.contains("outside IWRAM")), "{problems:?}");
        }
        other => panic!("the check let a ROM call through: {other:?}"),
    }
}

#[test]
fn a_missing_hot_function_is_caught() {
    let err = check(&elf("terrain", false), &["no_such_function"]).unwrap_err();
    assert!(err.to_string().contains("no_such_function"), "{err}");
}
