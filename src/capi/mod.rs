//! The C boundary: the only `#[no_mangle] extern "C"` functions.

#[cfg(test)]
mod generated_header;
