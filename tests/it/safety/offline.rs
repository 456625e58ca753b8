//! Every command run again without a network still works, where the platform allows it.

use std::process::Command;

use super::{commands, corpus};
use crate::support::watchdog::{LIMIT, run};

// ---------------------------------------------------------------------------------------------
// Without a network.

/// The `unshare` prefix that takes the network away, if the platform allows one.
fn offline_prefix() -> Result<Vec<&'static str>, String> {
    let mut why = Vec::new();
    for prefix in [vec!["unshare", "-rn"], vec!["unshare", "-n"]] {
        match Command::new(prefix[0])
            .args(&prefix[1..])
            .arg("true")
            .output()
        {
            Ok(o) if o.status.success() => return Ok(prefix),
            Ok(o) => why.push(format!(
                "`{}` refused: {}",
                prefix.join(" "),
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => why.push(format!("`{}`: {e}", prefix.join(" "))),
        }
    }
    Err(why.join("; "))
}

#[test]
fn every_command_works_without_a_network() {
    let prefix = match offline_prefix() {
        Ok(p) => p,
        Err(why) => {
            println!("skipped: no network namespace can be made here ({why})");
            return;
        }
    };
    // The namespace really has no route out.
    let probe = Command::new(prefix[0])
        .args(&prefix[1..])
        .args(["cat", "/proc/net/route"])
        .output()
        .unwrap();
    let routes = String::from_utf8_lossy(&probe.stdout).lines().count();
    assert!(
        routes <= 1,
        "a route in the namespace:\n{}",
        String::from_utf8_lossy(&probe.stdout)
    );
    let c = corpus();
    let out = tempfile::tempdir().unwrap();
    let mut list = commands(&c, out.path());
    list.push(vec!["schema".into(), "result".into()]);
    list.push(vec!["rules".into()]);
    list.push(vec!["rule".into(), "M018".into()]);
    for args in list {
        let mut cmd = Command::new(prefix[0]);
        cmd.args(&prefix[1..])
            .arg(env!("CARGO_BIN_EXE_benchlint"))
            .args(&args)
            .env("NO_COLOR", "1");
        let r = run(cmd, LIMIT);
        assert!(
            matches!(r.code, Some(0 | 1)),
            "offline {args:?}: exit {:?}\n{}",
            r.code,
            r.err()
        );
        assert!(
            !r.stdout.is_empty() || args[0] == "import" || args.iter().any(|a| a == "-o"),
            "offline {args:?} printed nothing"
        );
    }
}
