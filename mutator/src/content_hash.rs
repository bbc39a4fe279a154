//! The one content hash of the workspace: FNV-1a, 64 bits (the `fnv` crate), the same on every
//! machine and toolchain (unlike std's `DefaultHasher`), for change detection and
//! content-addressed names: the metamutant cache key, the mutator's source digest, and the
//! harness's fingerprints and binary names. Not meant to resist an adversary.

use std::hash::Hasher as _;

/// A content hash fed piece by piece.
#[derive(Default)]
pub struct ContentHash(fnv::FnvHasher);

impl ContentHash {
    /// Feeds `bytes`, then a separator, so that ("ab", "c") and ("a", "bc") differ.
    pub fn feed(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.write(bytes);
        self.0.write_u8(0xff);
        self
    }

    /// The hash as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0.finish())
    }
}
