// SPDX-License-Identifier: MIT
//! errno names. The numbers differ between architectures (MIPS, SPARC,
//! Alpha and PA-RISC have their own), so the table is built from the
//! `libc` crate's constants for the target, one name each.

macro_rules! errno_names {
    ($($name:ident)*) => {
        /// errno values and their names, as the `libc` crate defines them.
        const ERRNOS: &[(i32, &str)] = &[$((libc::$name, stringify!($name)),)*];
    };
}
errno_names! {
    EPERM ENOENT ESRCH EINTR EIO ENXIO E2BIG ENOEXEC EBADF ECHILD EAGAIN ENOMEM
    EACCES EFAULT EBUSY EEXIST EXDEV ENODEV ENOTDIR EISDIR EINVAL ENFILE EMFILE
    ENOTTY ETXTBSY EFBIG ENOSPC ESPIPE EROFS EMLINK EPIPE ERANGE EDEADLK
    ENAMETOOLONG ENOLCK ENOSYS ENOTEMPTY ELOOP ENOMSG EIDRM ENODATA ETIME EBADMSG
    EOVERFLOW EBADFD EILSEQ ENOTSOCK EDESTADDRREQ EMSGSIZE EPROTOTYPE ENOPROTOOPT
    EPROTONOSUPPORT EOPNOTSUPP EAFNOSUPPORT EADDRINUSE EADDRNOTAVAIL ENETDOWN
    ENETUNREACH ECONNABORTED ECONNRESET ENOBUFS EISCONN ENOTCONN ESHUTDOWN
    ETIMEDOUT ECONNREFUSED EHOSTUNREACH EALREADY EINPROGRESS ESTALE EDQUOT
    ECANCELED EOWNERDEAD ENOTRECOVERABLE
}

/// The name of a positive errno value (`EINVAL`), if known.
pub fn errno_name(errno: i32) -> Option<&'static str> {
    ERRNOS.iter().find(|(v, _)| *v == errno).map(|(_, n)| *n)
}
