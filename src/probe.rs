//! Placeholder: filled by its own piece of work.
