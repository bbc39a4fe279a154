"""Prints the workspace's `[profile.release]` tables (Cargo.toml) as cargo configuration.

Usage: release-profile.py CARGO_TOML

scripts/install-test.sh appends them to its CARGO_HOME's config.toml, so that the install it
makes from the packaged crates (which carry no workspace profile) compiles with the settings
the tests' build used, and reuses that build's third-party crates.
"""

import json
import sys
import tomllib


def write(header, table):
    print(f"\n[{header}]")
    for key, value in table.items():
        if not isinstance(value, dict):
            print(f"{key} = {json.dumps(value)}")
    for key, value in table.items():
        if key == "package":
            for package, settings in value.items():
                write(f'{header}.package."{package}"', settings)
        elif isinstance(value, dict):
            write(f"{header}.{key}", value)


with open(sys.argv[1], "rb") as f:
    write("profile.release", tomllib.load(f)["profile"]["release"])
