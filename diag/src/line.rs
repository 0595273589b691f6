// SPDX-License-Identifier: MIT
//! A fixed-size text line and the few number formats the diagnostics need.
//!
//! `core::fmt` would link a panic path into the library (`make
//! check-symbols` rejects that), so lines are built by hand: bytes are
//! appended into a stack buffer and anything past its end is dropped, and
//! the whole line goes out in one `write(2)` (through [`crate::output`]) so
//! lines of several threads or processes sharing a file do not interleave.

/// Bytes one line can hold; longer lines are cut (and end in `...`).
const CAPACITY: usize = 1024;

/// One line of text being built.
pub struct Line {
    buf: [u8; CAPACITY],
    len: usize,
    cut: bool,
}

impl Default for Line {
    fn default() -> Self {
        Self::new()
    }
}

impl Line {
    /// An empty line.
    pub const fn new() -> Line {
        Line {
            buf: [0; CAPACITY],
            len: 0,
            cut: false,
        }
    }

    /// Empties the line for reuse (one buffer on the caller's stack where
    /// several lines are written one after another).
    pub fn clear(&mut self) -> &mut Self {
        self.len = 0;
        self.cut = false;
        self
    }

    /// Appends raw bytes (cut at the capacity).
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        for &c in b {
            match self.buf.get_mut(self.len) {
                Some(slot) => {
                    *slot = c;
                    self.len += 1;
                }
                None => {
                    self.cut = true;
                    break;
                }
            }
        }
        self
    }

    /// Appends text.
    pub fn s(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }

    /// Appends an unsigned decimal number.
    pub fn u(&mut self, mut v: u64) -> &mut Self {
        let mut digits = [0u8; 20];
        let mut n = 0;
        loop {
            if let Some(d) = digits.get_mut(n) {
                *d = b'0' + (v % 10) as u8;
            }
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        while n > 0 {
            n -= 1;
            if let Some(&d) = digits.get(n) {
                self.bytes(&[d]);
            }
        }
        self
    }

    /// Appends a signed decimal number.
    pub fn i(&mut self, v: i64) -> &mut Self {
        if v < 0 {
            self.s("-");
        }
        self.u(v.unsigned_abs())
    }

    /// Appends `0x` and a lower-case hexadecimal number.
    pub fn x(&mut self, v: u64) -> &mut Self {
        self.s("0x");
        let mut started = false;
        for shift in (0..16).rev() {
            let nibble = ((v >> (shift * 4)) & 0xf) as u8;
            if nibble != 0 || started || shift == 0 {
                started = true;
                let c = if nibble < 10 {
                    b'0' + nibble
                } else {
                    b'a' + nibble - 10
                };
                self.bytes(&[c]);
            }
        }
        self
    }

    /// Appends `part / whole` with two decimals (`-` when `whole` is 0).
    pub fn ratio(&mut self, part: u64, whole: u64) -> &mut Self {
        let Some(hundredths) = part.saturating_mul(100).checked_div(whole) else {
            return self.s("-");
        };
        self.u(hundredths / 100).s(".");
        let frac = hundredths % 100;
        if frac < 10 {
            self.s("0");
        }
        self.u(frac)
    }

    /// Appends a byte count in a readable unit (exact bytes for small ones).
    pub fn size(&mut self, bytes: u64) -> &mut Self {
        const KIB: u64 = 1024;
        if bytes >= KIB * KIB && bytes % (KIB * KIB) == 0 {
            self.u(bytes / (KIB * KIB)).s(" MiB")
        } else if bytes >= KIB && bytes % KIB == 0 {
            self.u(bytes / KIB).s(" KiB")
        } else {
            self.u(bytes).s(" bytes")
        }
    }

    /// The text so far.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// Ends the line with a newline (marking a cut one) and returns it.
    pub fn finished(&mut self) -> &[u8] {
        if self.cut {
            // Make room for the marker and the newline.
            self.len = self.len.min(CAPACITY - 4);
            self.cut = false;
            self.s("...");
        } else if self.len == CAPACITY {
            self.len -= 1;
        }
        self.s("\n");
        self.as_bytes()
    }

    /// Writes the line to the trace target, in one call.
    pub fn emit_trace(&mut self) {
        if crate::output::json() {
            return;
        }
        crate::output::trace(self.finished());
    }

    /// Writes the line as one JSON trace event (the caller wrote the
    /// object; a comma and a newline follow it).
    pub fn emit_event(&mut self) {
        self.s(",");
        crate::output::trace(self.finished());
    }

    /// Writes the line to the program's stderr, in one call.
    pub fn emit_stderr(&mut self) {
        crate::output::stderr(self.finished());
    }
}

#[cfg(test)]
mod tests;
