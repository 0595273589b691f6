// SPDX-License-Identifier: MIT
//! The doc comment of every exported function of the C boundary
//! (`#[no_mangle] extern "C"` in `src/capi/*.rs`), read with a Rust parser:
//! the text of the library functions' reference pages (`crate::man`).

use syn::{Attribute, Expr, Item, ItemFn, Lit, Meta};

/// The directory of the C boundary, relative to the repository.
const CAPI: &str = "src/capi";

/// One `///` line as the manual uses it: the text after the comment
/// marker minus the one separating blank, with no trailing blanks.
fn doc_line(text: &str) -> &str {
    text.strip_prefix(' ').unwrap_or(text).trim_end()
}

/// The doc lines of `attrs`, in order.
fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(l) => match &l.lit {
                    Lit::Str(s) => Some(doc_line(&s.value()).to_string()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Whether the function is `#[no_mangle]` (also `#[unsafe(no_mangle)]`).
fn is_no_mangle(f: &ItemFn) -> bool {
    f.attrs.iter().any(|a| {
        a.path().is_ident("no_mangle")
            || (a.path().is_ident("unsafe")
                && a.parse_args::<syn::Path>()
                    .is_ok_and(|p| p.is_ident("no_mangle")))
    })
}

/// Whether the function has the C calling convention.
fn is_extern_c(f: &ItemFn) -> bool {
    f.sig
        .abi
        .as_ref()
        .and_then(|abi| abi.name.as_ref())
        .is_some_and(|n| n.value() == "C")
}

/// (name, doc lines) of every exported C function of one source file,
/// in source order.
fn exported(source: &str) -> Result<Vec<(String, Vec<String>)>, syn::Error> {
    let file = syn::parse_file(source)?;
    Ok(file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Fn(f) if is_no_mangle(f) && is_extern_c(f) => {
                Some((f.sig.ident.to_string(), doc_lines(&f.attrs)))
            }
            _ => None,
        })
        .collect())
}

/// The `.rs` files of the C boundary, relative to the repository, in
/// name order.
fn capi_files() -> Vec<String> {
    let dir = crate::repo().join(CAPI);
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| crate::fail(&format!("{}: {e}", dir.display())));
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rs"))
        .collect();
    names.sort();
    names.into_iter().map(|n| format!("{CAPI}/{n}")).collect()
}

/// (name, file, doc lines) of every exported function of the C boundary:
/// files in name order, functions in source order. The file named for a
/// generated function is the table it comes from.
pub(crate) fn functions() -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    for file in capi_files() {
        let origin = if file == crate::register_calls::boundary::OUT {
            crate::register_calls::TABLE.to_string()
        } else {
            file.clone()
        };
        let path = crate::repo().join(&file);
        let source = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| crate::fail(&format!("{}: {e}", path.display())));
        let functions = exported(&source).unwrap_or_else(|e| crate::fail(&format!("{file}: {e}")));
        for (name, lines) in functions {
            out.push((name, origin.clone(), lines));
        }
    }
    out
}

#[cfg(test)]
mod tests;
