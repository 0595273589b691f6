// SPDX-License-Identifier: MIT
//! Opcodes and the flags each opcode reads from its SQE (in the per-opcode
//! flag word, `ioprio`, `len` or `addr`).
//!
//! Each opcode is one row of [`OPCODES`] (code, name, first kernel release,
//! whether it takes a file, whether it can select a provided buffer, which
//! flag group its flag word holds, what it does, the SQE fields it reads,
//! what it returns), from which its constant, the C enum and `IORING_OP_LAST`
//! come, and which diagnostics (trace decoding), the release table (and so
//! the manual) and the generator's checks of the prep helpers read.

use crate::op_flag_groups::FlagGroup;
use crate::{CConst, CGroup, CGroupKind};

c_structs! {
    pub(crate) static LAYOUTS;

    /// Unsigned timespec used by io_uring timestamps.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct io_timespec {
        pub tv_sec: u64 => "__u64",
        pub tv_nsec: u64 => "__u64",
    }
}

/// What the library knows about one opcode: one row of [`OPCODES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opcode {
    /// The value in `sqe->opcode`.
    pub code: u8,
    /// The C name (`IORING_OP_READV`).
    pub name: &'static str,
    /// The first Linux release (major, minor) that accepts it.
    pub since: (u32, u32),
    /// Whether `sqe->fd` must name an open file (or a fixed-file slot).
    pub takes_file: bool,
    /// Whether it can pick a provided buffer (`IOSQE_BUFFER_SELECT`).
    pub buffer_select: bool,
    /// The names of the bits of its per-opcode flag word (`sqe->rw_flags`
    /// and its aliases), when that word holds flags.
    pub flags: Option<&'static FlagGroup>,
    /// What it does, one sentence or so (`x` bold, *x* italic in the
    /// manual).
    pub does: &'static str,
    /// The SQE fields it reads.
    pub reads: Reads,
    /// What its CQE says (usually `*res*: ...`), possibly empty.
    pub result: &'static str,
}

/// The SQE fields an opcode reads beyond those every request has (*opcode*,
/// *flags*, *user_data*, *personality*; see [`COMMON_FIELDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reads {
    /// Another opcode whose fields it reads as well (`IORING_OP_WRITEV`
    /// reads those of `IORING_OP_READV`).
    pub like: Option<u8>,
    /// Each field by its name in `struct io_uring_sqe`, with a note on what
    /// it holds (possibly empty; the manual prints it after the name).
    pub fields: &'static [(&'static str, &'static str)],
}

/// The SQE fields every request may set whatever its opcode: they are not
/// listed in [`Reads`]. (`ioprio` is not one of them: only some opcodes
/// read it, the others require it to be 0.)
pub const COMMON_FIELDS: &[&str] = &["opcode", "flags", "user_data", "personality"];

impl Reads {
    /// Calls `f` with every field read, those of `like` first.
    pub fn each(&self, f: &mut dyn FnMut(&'static str, &'static str)) {
        if let Some(row) = self.like.and_then(opcode) {
            row.reads.each(f);
        }
        for &(field, note) in self.fields {
            f(field, note);
        }
    }

    /// Whether `field` is one of the fields read.
    pub fn has(&self, field: &str) -> bool {
        let mut found = false;
        self.each(&mut |f, _| found |= f == field);
        found
    }
}

impl Opcode {
    /// The manual's text for the opcode: what it does, the sentence
    /// naming the fields it reads (made from [`Reads`]), then its result.
    pub fn meaning(&self) -> Meaning<'_> {
        Meaning(self)
    }
}

/// [`Opcode::meaning`], written out by its `Display`.
#[derive(Clone, Copy, Debug)]
pub struct Meaning<'a>(&'a Opcode);

impl core::fmt::Display for Meaning<'_> {
    fn fmt(&self, out: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let op = self.0;
        out.write_str(op.does)?;
        out.write_str(" Reads ")?;
        let fields = op.reads.fields;
        if let Some(like) = op.reads.like.and_then(opcode) {
            write!(out, "the fields of `{}`", like.name)?;
            if !fields.is_empty() {
                out.write_str(" and ")?;
            }
        }
        for (i, (field, note)) in fields.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            write!(out, "*{field}*")?;
            if !note.is_empty() {
                write!(out, " {note}")?;
            }
        }
        out.write_str(".")?;
        if !op.result.is_empty() {
            write!(out, " {}", op.result)?;
        }
        Ok(())
    }
}

/// Declares the opcodes, one row each: the `IORING_OP_*` constants, the C
/// enum with `IORING_OP_LAST` (the number of rows), and [`OPCODES`].
///
/// A row is `NAME = code, since(major, minor), [flags], "does",
/// like(OTHER_OP) reads(field "note", ...), "result";`. The flags are
/// `file` (takes a file), `buffer_select`, and `flags(GROUP)`, naming the
/// [`FlagGroup`] of [`op_flag_groups`](crate::op_flag_groups) its flag word
/// holds. `reads` lists the SQE fields it reads, by their names in
/// `struct io_uring_sqe`, each with an optional note; `like(...)` (optional)
/// adds those of another opcode. Rows are in code order, codes counting from
/// 0 (checked at compile time).
macro_rules! opcode_table {
    (
        $(#[doc = $gdoc:literal])*
        enum $ename:ident {
            $( $name:ident = $code:literal, since($maj:literal, $min:literal),
               [$($flag:ident $(($group:ident))?),*],
               $does:literal,
               $(like($like:ident))? reads($($field:ident $($note:literal)?),*),
               $result:literal; )*
        }
        $(#[doc = $ldoc:literal])* last $last:ident;
    ) => {
        $( pub const $name: u8 = $code; )*
        $(#[doc = $ldoc])*
        pub const $last: u8 = OPCODES.len() as u8;

        /// Every opcode, in code order.
        pub const OPCODES: &[Opcode] = &[
            $( Opcode {
                code: $code,
                name: stringify!($name),
                since: ($maj, $min),
                takes_file: has_flag(&[$(stringify!($flag)),*], "file"),
                buffer_select: has_flag(&[$(stringify!($flag)),*], "buffer_select"),
                flags: first_group(&[$($(&crate::op_flag_groups::$group,)?)*]),
                does: $does,
                reads: Reads {
                    like: first_code(&[$($like)?]),
                    fields: &[$( (stringify!($field), concat!("" $(, $note)?)), )*],
                },
                result: $result,
            }, )*
        ];

        /// The opcodes as the C header's enum (`IORING_OP_LAST` spelled by
        /// its value).
        const OPCODE_GROUP: CGroup = CGroup {
            kind: CGroupKind::Enum(Some(stringify!($ename))),
            doc: &[$($gdoc),*],
            consts: &[
                $( CConst { name: stringify!($name), value: $code, expr: stringify!($code), doc: &[] }, )*
                CConst { name: stringify!($last), value: OPCODES.len() as i128, expr: "", doc: &[$($ldoc),*] },
            ],
        };
    };
}

/// The only group of a row, if it names one.
const fn first_group(groups: &[&'static FlagGroup]) -> Option<&'static FlagGroup> {
    assert!(groups.len() <= 1, "an opcode has one flag word");
    match groups {
        [g] => Some(*g),
        _ => None,
    }
}

/// The only code of a `like(...)`, if the row has one.
const fn first_code(codes: &[u8]) -> Option<u8> {
    match codes {
        [c] => Some(*c),
        _ => None,
    }
}

/// Whether `flags` holds `which`; any other flag name stops the build.
const fn has_flag(flags: &[&str], which: &str) -> bool {
    let mut found = false;
    let mut i = 0;
    while i < flags.len() {
        let is_which = crate::same_str(flags[i], which);
        assert!(
            is_which
                || crate::same_str(flags[i], "file")
                || crate::same_str(flags[i], "buffer_select")
                || crate::same_str(flags[i], "flags"),
            "unknown opcode flag"
        );
        found |= is_which;
        i += 1;
    }
    found
}

// Codes count from 0 in row order, so `IORING_OP_LAST` is one past the top.
const _: () = {
    let mut i = 0;
    while i < OPCODES.len() {
        assert!(OPCODES[i].code as usize == i, "opcode rows out of order");
        i += 1;
    }
};

opcode_table! {
    /// Request opcodes, in `sqe->opcode`.
    enum io_uring_op {
        IORING_OP_NOP              =  0, since(5,  1), [],
            "Does nothing.",
            reads(nop_flags "(`IORING_NOP_*`; `IORING_NOP_INJECT_RESULT`: complete with *len* as the result)",
                fd "(with `IORING_NOP_FILE`)", buf_index "(with `IORING_NOP_FIXED_BUFFER`)"),
            "*res*: 0.";
        IORING_OP_READV            =  1, since(5,  1), [file, buffer_select, flags(RW)],
            "Vectored read, as preadv2(2).",
            reads(fd, addr "(iovec array)", len "(iovec count)", off "(-1: current position)",
                rw_flags "(RWF_*)", ioprio "(I/O priority)",
                buf_group "with `IOSQE_BUFFER_SELECT`"),
            "*res*: bytes read.";
        IORING_OP_WRITEV           =  2, since(5,  1), [file, flags(RW)],
            "Vectored write, as pwritev2(2).",
            like(IORING_OP_READV) reads(write_stream "(Linux 6.16: the device's write stream to place the data in, 0 for none)"),
            "*res*: bytes written.";
        IORING_OP_FSYNC            =  3, since(5,  1), [file, flags(FSYNC)],
            "As fsync(2), or fdatasync(2) with `IORING_FSYNC_DATASYNC` in *fsync_flags*.",
            reads(fd, fsync_flags, off "(start of the range)", len "(length of the range)"),
            "*res*: 0.";
        IORING_OP_READ_FIXED       =  4, since(5,  1), [file, flags(RW)],
            "Read into a registered buffer.",
            reads(fd, addr "(inside the buffer)", len, off, rw_flags, ioprio "(I/O priority)",
                buf_index),
            "*res*: bytes read.";
        IORING_OP_WRITE_FIXED      =  5, since(5,  1), [file, flags(RW)],
            "Write from a registered buffer.",
            like(IORING_OP_READ_FIXED) reads(write_stream "(Linux 6.16: the device's write stream to place the data in, 0 for none)"),
            "*res*: bytes written.";
        IORING_OP_POLL_ADD         =  6, since(5,  1), [file],
            "Wait for poll events on *fd*.",
            reads(fd, poll32_events, len "(`IORING_POLL_ADD_MULTI`, `IORING_POLL_ADD_LEVEL`)"),
            "*res*: the events that fired; a multishot poll sets `IORING_CQE_F_MORE` while it \
             stays armed.";
        IORING_OP_POLL_REMOVE      =  7, since(5,  1), [],
            "Remove or update a poll request.",
            reads(addr "(its *user_data*)",
                len "(`IORING_POLL_UPDATE_EVENTS`, `IORING_POLL_UPDATE_USER_DATA`)",
                off "(new *user_data*)", poll32_events "(new events)"),
            "*res*: 0, `-ENOENT` if not found, `-EALREADY` if it is completing.";
        IORING_OP_SYNC_FILE_RANGE  =  8, since(5,  2), [file],
            "As sync_file_range(2).",
            reads(fd, off, len, sync_range_flags),
            "*res*: 0.";
        IORING_OP_SENDMSG          =  9, since(5,  3), [file, buffer_select],
            "As sendmsg(2).",
            reads(fd, addr "(struct msghdr)", len "(liburing puts 1)", msg_flags,
                ioprio "(`IORING_RECVSEND_*` flags)"),
            "*res*: bytes sent.";
        IORING_OP_RECVMSG          = 10, since(5,  3), [file, buffer_select],
            "As recvmsg(2).",
            reads(fd, addr "(struct msghdr)", len "(liburing puts 1)", msg_flags,
                ioprio "(`IORING_RECV_MULTISHOT`, `IORING_RECVSEND_POLL_FIRST`)", buf_group),
            "*res*: bytes received; *flags* may hold `IORING_CQE_F_BUFFER`, `IORING_CQE_F_MORE`, \
             `IORING_CQE_F_SOCK_NONEMPTY`. A multishot receive writes a *struct \
             io_uring_recvmsg_out* at the start of each buffer.";
        IORING_OP_TIMEOUT          = 11, since(5,  4), [flags(TIMEOUT)],
            "A timer.",
            reads(
                addr "(struct __kernel_timespec, or nanoseconds with \
                      `IORING_TIMEOUT_IMMEDIATE_ARG`)",
                len "(must be 1)",
                off "(complete after this many other completions; 0: time only)", timeout_flags),
            "*res*: `-ETIME` when the time passed, 0 when the count was reached first.";
        IORING_OP_TIMEOUT_REMOVE   = 12, since(5,  5), [flags(TIMEOUT)],
            "Cancel or update a timeout.",
            reads(addr "(its *user_data*)",
                timeout_flags "(`IORING_TIMEOUT_UPDATE`, `IORING_LINK_TIMEOUT_UPDATE`)",
                addr2 "(new timespec)"),
            "*res*: 0, `-ENOENT`, or `-EALREADY`.";
        IORING_OP_ACCEPT           = 13, since(5,  5), [file],
            "As accept4(2).",
            reads(fd, addr "(struct sockaddr)", addr2 "(socklen_t pointer)",
                accept_flags "(SOCK_*)", ioprio "(`IORING_ACCEPT_*`)", file_index),
            "*res*: the new descriptor (a direct index with *file_index*); a multishot accept sets \
             `IORING_CQE_F_MORE`.";
        IORING_OP_ASYNC_CANCEL     = 14, since(5,  5), [flags(CANCEL)],
            "Cancel requests in flight.",
            reads(addr "(the *user_data* to match)", fd "(with `IORING_ASYNC_CANCEL_FD`)",
                len "(opcode, with `IORING_ASYNC_CANCEL_OP`)", cancel_flags),
            "*res*: 0 (or the number cancelled with `IORING_ASYNC_CANCEL_ALL`), `-ENOENT` if none \
             matched, `-EALREADY` if it was running and may still complete.";
        IORING_OP_LINK_TIMEOUT     = 15, since(5,  5), [flags(TIMEOUT)],
            "A timeout for the request linked before it.",
            reads(addr "(timespec)", len "(must be 1)", timeout_flags),
            "*res*: `-ETIME` when it fired (the linked request then fails with `-ECANCELED`), \
             `-ECANCELED` when the request finished first.";
        IORING_OP_CONNECT          = 16, since(5,  5), [file],
            "As connect(2).",
            reads(fd, addr "(struct sockaddr)", off "(address length)"),
            "*res*: 0.";
        IORING_OP_FALLOCATE        = 17, since(5,  6), [file],
            "As fallocate(2).",
            reads(fd, len "(mode)", off "(offset)", addr "(length)"),
            "*res*: 0.";
        IORING_OP_OPENAT           = 18, since(5,  6), [],
            "As openat(2).",
            reads(fd "(directory)", addr "(path)", open_flags, len "(mode)", file_index),
            "*res*: the new descriptor; with a direct slot, 0, or the slot chosen when *file_index* is \
             `IORING_FILE_INDEX_ALLOC`.";
        IORING_OP_CLOSE            = 19, since(5,  6), [],
            "As close(2), or removes a registered file when *file_index* is set.",
            reads(fd, file_index),
            "*res*: 0.";
        IORING_OP_FILES_UPDATE     = 20, since(5,  6), [],
            "Replace registered files from a request.",
            reads(addr "(array of descriptors)", len "(count)",
                off "(first slot, or `IORING_FILE_INDEX_ALLOC`)"),
            "*res*: the number of slots updated.";
        IORING_OP_STATX            = 21, since(5,  6), [],
            "As statx(2).",
            reads(fd "(directory)", addr "(path)", statx_flags, len "(mask)",
                off "(struct statx pointer)"),
            "*res*: 0.";
        IORING_OP_READ             = 22, since(5,  6), [file, buffer_select, flags(RW)],
            "As pread(2).",
            reads(fd, addr, len, off "(-1: current position)", rw_flags, ioprio "(I/O priority)",
                buf_group "with `IOSQE_BUFFER_SELECT`"),
            "*res*: bytes read; `IORING_CQE_F_BUFFER` names a selected buffer.";
        IORING_OP_WRITE            = 23, since(5,  6), [file, flags(RW)],
            "As pwrite(2).",
            reads(fd, addr, len, off, rw_flags, ioprio "(I/O priority)",
                write_stream "(Linux 6.16: the device's write stream to place the data in, 0 for none)"),
            "*res*: bytes written.";
        IORING_OP_FADVISE          = 24, since(5,  6), [file],
            "As posix_fadvise(2).",
            reads(fd, off, len, addr "(64-bit length on newer kernels; 0: use *len*)",
                fadvise_advice),
            "*res*: 0.";
        IORING_OP_MADVISE          = 25, since(5,  6), [],
            "As madvise(2).",
            reads(addr, len, off "(64-bit length on newer kernels; 0: use *len*)", fadvise_advice),
            "*res*: 0.";
        IORING_OP_SEND             = 26, since(5,  6), [file, buffer_select],
            "As send(2).",
            reads(fd, addr, len, msg_flags, ioprio "(`IORING_RECVSEND_*` flags)",
                buf_group "(bundles)", addr2 "(destination address, since 6.10)",
                addr_len "(its length)"),
            "*res*: bytes sent.";
        IORING_OP_RECV             = 27, since(5,  6), [file, buffer_select],
            "As recv(2).",
            reads(fd, addr, len, msg_flags,
                ioprio "(`IORING_RECV_MULTISHOT`, `IORING_RECVSEND_POLL_FIRST`, \
                        `IORING_RECVSEND_BUNDLE`)",
                buf_group),
            "*res*: bytes received; *flags* may hold `IORING_CQE_F_BUFFER`, `IORING_CQE_F_MORE`, \
             `IORING_CQE_F_SOCK_NONEMPTY`, `IORING_CQE_F_BUF_MORE`.";
        IORING_OP_OPENAT2          = 28, since(5,  6), [],
            "As openat2(2).",
            reads(fd, addr "(path)", len "(size of struct open_how)",
                off "(struct open_how pointer)", file_index),
            "*res*: the new descriptor; with a direct slot, 0, or the slot chosen when *file_index* is \
             `IORING_FILE_INDEX_ALLOC`.";
        IORING_OP_EPOLL_CTL        = 29, since(5,  6), [file],
            "As epoll_ctl(2).",
            reads(fd "(epoll descriptor)", len "(operation)", off "(target descriptor)",
                addr "(struct epoll_event)"),
            "*res*: 0.";
        IORING_OP_SPLICE           = 30, since(5,  7), [file, flags(SPLICE)],
            "As splice(2).",
            reads(splice_fd_in, splice_off_in, fd "(output)", off "(output offset)", len,
                splice_flags "(with `SPLICE_F_FD_IN_FIXED`)"),
            "*res*: bytes moved.";
        IORING_OP_PROVIDE_BUFFERS  = 31, since(5,  7), [],
            "Hand the kernel buffers for `IOSQE_BUFFER_SELECT`.",
            reads(addr "(first buffer)", len "(size of each)", fd "(count)", buf_group,
                off "(first buffer id)"),
            "*res*: 0.";
        IORING_OP_REMOVE_BUFFERS   = 32, since(5,  7), [],
            "Take back provided buffers.",
            reads(fd "(count)", buf_group),
            "*res*: the number removed.";
        IORING_OP_TEE              = 33, since(5,  8), [file, flags(SPLICE)],
            "As tee(2).",
            reads(splice_fd_in, fd, len, splice_flags),
            "*res*: bytes duplicated.";
        IORING_OP_SHUTDOWN         = 34, since(5, 11), [file],
            "As shutdown(2).",
            reads(fd, len "(how)"),
            "*res*: 0.";
        IORING_OP_RENAMEAT         = 35, since(5, 11), [],
            "As renameat2(2).",
            reads(fd "(old directory)", addr "(old path)", len "(new directory)",
                addr2 "(new path)", rename_flags),
            "*res*: 0.";
        IORING_OP_UNLINKAT         = 36, since(5, 11), [],
            "As unlinkat(2).",
            reads(fd, addr "(path)", unlink_flags),
            "*res*: 0.";
        IORING_OP_MKDIRAT          = 37, since(5, 15), [],
            "As mkdirat(2).",
            reads(fd, addr "(path)", len "(mode)"),
            "*res*: 0.";
        IORING_OP_SYMLINKAT        = 38, since(5, 15), [],
            "As symlinkat(2).",
            reads(addr "(target)", fd "(directory)", addr2 "(link path)"),
            "*res*: 0.";
        IORING_OP_LINKAT           = 39, since(5, 15), [],
            "As linkat(2).",
            reads(fd "(old directory)", addr "(old path)", len "(new directory)",
                addr2 "(new path)", hardlink_flags),
            "*res*: 0.";
        IORING_OP_MSG_RING         = 40, since(5, 18), [file, flags(MSG_RING)],
            "Post a completion to another ring, or pass it a registered file.",
            reads(fd "(target ring)", addr "(`IORING_MSG_DATA` or `IORING_MSG_SEND_FD`)",
                len "(the target CQE's *res*)", off "(its *user_data*)", msg_ring_flags,
                addr3 "(source file index)",
                file_index "(target slot, or CQE flags with `IORING_MSG_RING_FLAGS_PASS`)"),
            "*res*: 0 for the sender.";
        IORING_OP_FSETXATTR        = 41, since(5, 19), [file],
            "As fsetxattr(2).",
            reads(fd, addr "(name)", addr2 "(value)", len "(size)", xattr_flags),
            "*res*: 0.";
        IORING_OP_SETXATTR         = 42, since(5, 19), [],
            "As setxattr(2).",
            reads(addr3 "(path)", addr "(name)", addr2 "(value)", len, xattr_flags),
            "*res*: 0.";
        IORING_OP_FGETXATTR        = 43, since(5, 19), [file],
            "As fgetxattr(2).",
            reads(fd, addr "(name)", addr2 "(buffer)", len),
            "*res*: the size of the value.";
        IORING_OP_GETXATTR         = 44, since(5, 19), [],
            "As getxattr(2).",
            reads(addr3 "(path)", addr "(name)", addr2 "(buffer)", len),
            "*res*: the size of the value.";
        IORING_OP_SOCKET           = 45, since(5, 19), [],
            "As socket(2).",
            reads(fd "(domain)", off "(type)", len "(protocol)", file_index),
            "*res*: the new descriptor; with a direct slot, 0, or the slot chosen when *file_index* is \
             `IORING_FILE_INDEX_ALLOC`.";
        IORING_OP_URING_CMD        = 46, since(5, 19), [file, buffer_select, flags(URING_CMD)],
            "A command for the file's driver (NVMe passthrough, ublk, sockets with \
             `SOCKET_URING_OP_*`).",
            reads(fd, cmd_op, cmd "(the command: 16 bytes, or 80 with `IORING_SETUP_SQE128`)",
                uring_cmd_flags, buf_index, level "(socket commands)", optname, optval, optlen,
                addr "(`SOCKET_URING_OP_GETSOCKNAME`: the address)", addr3 "(its length)"),
            "*res* and, with `IORING_SETUP_CQE32`, *big_cqe* are the driver's.";
        IORING_OP_SEND_ZC          = 47, since(6,  0), [file],
            "Zero-copy send.",
            like(IORING_OP_SEND) reads(buf_index "with `IORING_RECVSEND_FIXED_BUF`"),
            "*res*: bytes sent, with `IORING_CQE_F_MORE` set; a second CQE with \
             `IORING_CQE_F_NOTIF` says the buffer may be reused.";
        IORING_OP_SENDMSG_ZC       = 48, since(6,  1), [file],
            "Zero-copy sendmsg(2).",
            like(IORING_OP_SENDMSG) reads(buf_index "with `IORING_RECVSEND_FIXED_BUF`"),
            "Completes as `IORING_OP_SEND_ZC`.";
        IORING_OP_READ_MULTISHOT   = 49, since(6,  7), [file, buffer_select],
            "Read repeatedly into provided buffers while data arrives.",
            reads(fd, off "(-1: current position)", len,
                buf_group "(`IOSQE_BUFFER_SELECT` required)"),
            "*res*: bytes per CQE, with `IORING_CQE_F_BUFFER` and `IORING_CQE_F_MORE`.";
        IORING_OP_WAITID           = 50, since(6,  7), [],
            "As waitid(2).",
            reads(fd "(id)", len "(id type)", file_index "(options)", addr2 "(siginfo pointer)"),
            "*res*: 0.";
        IORING_OP_FUTEX_WAIT       = 51, since(6,  7), [],
            "Wait on a futex.",
            reads(addr "(futex)", addr2 "(expected value)", addr3 "(bit mask)",
                fd "(FUTEX2_* flags)"),
            "*res*: 0.";
        IORING_OP_FUTEX_WAKE       = 52, since(6,  7), [],
            "Wake futex waiters.",
            reads(addr, addr2 "(how many)", addr3 "(mask)", fd "(flags)"),
            "*res*: the number woken.";
        IORING_OP_FUTEX_WAITV      = 53, since(6,  7), [],
            "Wait on several futexes.",
            reads(addr "(struct futex_waitv array)", len "(count)"),
            "*res*: the index of the futex that woke.";
        IORING_OP_FIXED_FD_INSTALL = 54, since(6,  8), [],
            "Turn a registered file into a normal descriptor.",
            reads(fd "(registered index; `IOSQE_FIXED_FILE` required)",
                install_fd_flags "(`IORING_FIXED_FD_NO_CLOEXEC`)"),
            "*res*: the new descriptor.";
        IORING_OP_FTRUNCATE        = 55, since(6,  9), [file],
            "As ftruncate(2).",
            reads(fd, off "(length)"),
            "*res*: 0.";
        IORING_OP_BIND             = 56, since(6, 11), [file],
            "As bind(2).",
            reads(fd, addr "(struct sockaddr)", addr2 "(address length)"),
            "*res*: 0.";
        IORING_OP_LISTEN           = 57, since(6, 11), [file],
            "As listen(2).",
            reads(fd, len "(backlog)"),
            "*res*: 0.";
        IORING_OP_RECV_ZC          = 58, since(6, 15), [file],
            "Zero-copy receive into an area registered with `IORING_REGISTER_ZCRX_IFQ`.",
            reads(fd, zcrx_ifq_idx, len "(byte limit, 0: none)",
                ioprio "(`IORING_RECV_MULTISHOT`)"),
            "Needs 32-byte CQEs: *res* bytes, the *struct io_uring_zcrx_cqe* in *big_cqe* locates \
             the data, `IORING_CQE_F_MORE` while armed.";
        IORING_OP_EPOLL_WAIT       = 59, since(6, 15), [file],
            "As epoll_wait(2) without a timeout.",
            reads(fd "(epoll descriptor)", addr "(event array)", len "(its size)"),
            "*res*: the number of events.";
        IORING_OP_READV_FIXED      = 60, since(6, 15), [file, flags(RW)],
            "Vectored read into registered buffer memory.",
            like(IORING_OP_READV) reads(buf_index),
            "*res*: bytes read.";
        IORING_OP_WRITEV_FIXED     = 61, since(6, 15), [file, flags(RW)],
            "Vectored write from registered buffer memory.",
            like(IORING_OP_WRITEV) reads(buf_index),
            "*res*: bytes written.";
        IORING_OP_PIPE             = 62, since(6, 16), [],
            "As pipe2(2).",
            reads(addr "(int[2] for the two descriptors)", pipe_flags,
                file_index "(direct descriptors)"),
            "*res*: 0.";
        IORING_OP_NOP128           = 63, since(6, 19), [],
            "`IORING_OP_NOP` in a 128-byte entry of an `IORING_SETUP_SQE_MIXED` ring.",
            like(IORING_OP_NOP) reads(),
            "";
        IORING_OP_URING_CMD128     = 64, since(6, 19), [file, buffer_select, flags(URING_CMD)],
            "`IORING_OP_URING_CMD` in a 128-byte entry of an `IORING_SETUP_SQE_MIXED` ring.",
            like(IORING_OP_URING_CMD) reads(),
            "";
    }

    /// One past the highest opcode this ABI knows.
    last IORING_OP_LAST;
}

/// The opcode row for `code`, if the ABI knows it.
pub const fn opcode(code: u8) -> Option<&'static Opcode> {
    if (code as usize) < OPCODES.len() {
        Some(&OPCODES[code as usize])
    } else {
        None
    }
}

c_consts! {
    static FLAG_CONSTS;

    /// `sqe->uring_cmd_flags` of `IORING_OP_URING_CMD`.
    macros(unsigned): u32 {
        /// The command uses the registered buffer `buf_index`.
        IORING_URING_CMD_FIXED = 1 << 0;
        /// The command posts a CQE per result, with a provided buffer each
        /// (`IOSQE_BUFFER_SELECT`), until it ends.
        IORING_URING_CMD_MULTISHOT = 1 << 1;
        /// Every flag a uring command may carry.
        IORING_URING_CMD_MASK = IORING_URING_CMD_FIXED | IORING_URING_CMD_MULTISHOT;
    }

    /// `sqe->fsync_flags` of `IORING_OP_FSYNC`.
    macros(unsigned): u32 {
        /// Flush data only, like fdatasync(2).
        IORING_FSYNC_DATASYNC = 1 << 0;
    }

    /// `sqe->timeout_flags` of the timeout opcodes.
    macros(unsigned): u32 {
        /// The timespec is an absolute time.
        IORING_TIMEOUT_ABS = 1 << 0;
        /// Change an existing timeout instead of removing it.
        IORING_TIMEOUT_UPDATE = 1 << 1;
        /// Measure on `CLOCK_BOOTTIME`.
        IORING_TIMEOUT_BOOTTIME = 1 << 2;
        /// Measure on `CLOCK_REALTIME`.
        IORING_TIMEOUT_REALTIME = 1 << 3;
        /// Change an existing linked timeout.
        IORING_LINK_TIMEOUT_UPDATE = 1 << 4;
        /// Complete with `-ETIME` as a success, not an error.
        IORING_TIMEOUT_ETIME_SUCCESS = 1 << 5;
        /// Fire repeatedly, `off` times (0: until cancelled).
        IORING_TIMEOUT_MULTISHOT = 1 << 6;
        /// `addr` holds the timeout in nanoseconds rather than a timespec pointer.
        IORING_TIMEOUT_IMMEDIATE_ARG = 1 << 7;
        /// The clock selection bits.
        IORING_TIMEOUT_CLOCK_MASK = IORING_TIMEOUT_BOOTTIME | IORING_TIMEOUT_REALTIME;
        /// The update selection bits.
        IORING_TIMEOUT_UPDATE_MASK = IORING_TIMEOUT_UPDATE | IORING_LINK_TIMEOUT_UPDATE;
    }

    /// `sqe->splice_flags`, on top of splice(2)'s own `SPLICE_F_*`.
    macros(unsigned): u32 {
        /// `splice_fd_in` is a registered file index.
        SPLICE_F_FD_IN_FIXED = 1 << 31;
    }

    /// Poll command flags, in `sqe->len` of `IORING_OP_POLL_ADD` and
    /// `IORING_OP_POLL_REMOVE`.
    macros(unsigned): u32 {
        /// Keep polling: post a CQE per event.
        IORING_POLL_ADD_MULTI = 1 << 0;
        /// Replace the events of an existing poll.
        IORING_POLL_UPDATE_EVENTS = 1 << 1;
        /// Replace the user_data of an existing poll.
        IORING_POLL_UPDATE_USER_DATA = 1 << 2;
        /// Level-triggered instead of edge-triggered.
        IORING_POLL_ADD_LEVEL = 1 << 3;
    }

    /// `sqe->cancel_flags` of `IORING_OP_ASYNC_CANCEL`, also
    /// `io_uring_sync_cancel_reg.flags`.
    macros(unsigned): u32 {
        /// Cancel every match, not just the first.
        IORING_ASYNC_CANCEL_ALL = 1 << 0;
        /// Match on the file descriptor instead of user_data.
        IORING_ASYNC_CANCEL_FD = 1 << 1;
        /// Match any request.
        IORING_ASYNC_CANCEL_ANY = 1 << 2;
        /// The fd to match is a registered file index.
        IORING_ASYNC_CANCEL_FD_FIXED = 1 << 3;
        /// Match on user_data too (combined with other keys).
        IORING_ASYNC_CANCEL_USERDATA = 1 << 4;
        /// Match on the opcode.
        IORING_ASYNC_CANCEL_OP = 1 << 5;
    }

    /// Send and receive flags, in `sqe->ioprio`.
    macros(unsigned): u16 {
        /// Poll for readiness before the first attempt.
        IORING_RECVSEND_POLL_FIRST = 1 << 0;
        /// Keep receiving: post a CQE per message.
        IORING_RECV_MULTISHOT = 1 << 1;
        /// Use the registered buffer `buf_index`.
        IORING_RECVSEND_FIXED_BUF = 1 << 2;
        /// Report in the notification whether data was copied.
        IORING_SEND_ZC_REPORT_USAGE = 1 << 3;
        /// Use as many provided buffers as the data needs.
        IORING_RECVSEND_BUNDLE = 1 << 4;
        /// The send takes an iovec array.
        IORING_SEND_VECTORIZED = 1 << 5;
    }

    /// Accept flags, in `sqe->ioprio`.
    macros(unsigned): u16 {
        /// Keep accepting: post a CQE per connection.
        IORING_ACCEPT_MULTISHOT = 1 << 0;
        /// Fail with `-EAGAIN` rather than wait.
        IORING_ACCEPT_DONTWAIT = 1 << 1;
        /// Poll for a connection before the first attempt.
        IORING_ACCEPT_POLL_FIRST = 1 << 2;
    }

    /// What `IORING_OP_MSG_RING` sends, in `sqe->addr`.
    enum io_uring_msg_ring_flags: u64 {
        /// Post a CQE with the given result and user_data.
        IORING_MSG_DATA = 0;
        /// Install a registered file in the target ring.
        IORING_MSG_SEND_FD = 1;
    }

    /// `sqe->msg_ring_flags`.
    macros(unsigned): u32 {
        /// Post no CQE in the sending ring.
        IORING_MSG_RING_CQE_SKIP = 1 << 0;
        /// Use `file_index` as the flags of the target CQE.
        IORING_MSG_RING_FLAGS_PASS = 1 << 1;
    }

    /// `sqe->install_fd_flags` of `IORING_OP_FIXED_FD_INSTALL`.
    macros(unsigned): u32 {
        /// The installed descriptor is not close-on-exec.
        IORING_FIXED_FD_NO_CLOEXEC = 1 << 0;
    }

    /// `sqe->nop_flags` of `IORING_OP_NOP`.
    macros(unsigned): u32 {
        /// Complete with `sqe->len` as the result.
        IORING_NOP_INJECT_RESULT = 1 << 0;
        /// Look up `sqe->fd` as a file, as a request on a file would.
        IORING_NOP_FILE = 1 << 1;
        /// With `IORING_NOP_FILE`: `sqe->fd` is a registered file's index.
        IORING_NOP_FIXED_FILE = 1 << 2;
        /// Look up the registered buffer `sqe->buf_index`.
        IORING_NOP_FIXED_BUFFER = 1 << 3;
        /// Complete through task work instead of inline.
        IORING_NOP_TW = 1 << 4;
        /// Post a 32-byte CQE.
        IORING_NOP_CQE32 = 1 << 5;
    }

    /// Socket commands of `IORING_OP_URING_CMD`, in `sqe->cmd_op`.
    enum io_uring_socket_op: u32 {
        SOCKET_URING_OP_SIOCINQ = 0;
        SOCKET_URING_OP_SIOCOUTQ = 1;
        SOCKET_URING_OP_GETSOCKOPT = 2;
        SOCKET_URING_OP_SETSOCKOPT = 3;
        SOCKET_URING_OP_TX_TIMESTAMP = 4;
        SOCKET_URING_OP_GETSOCKNAME = 5;
    }

    /// Completions of `SOCKET_URING_OP_TX_TIMESTAMP`: where the flags word
    /// keeps the timestamp's kind.
    macros(int): u32 {
        IORING_TIMESTAMP_HW_SHIFT = 16;
        IORING_TIMESTAMP_TYPE_SHIFT = IORING_TIMESTAMP_HW_SHIFT + 1;
    }
    macros(unsigned): u32 {
        /// The timestamp came from the hardware.
        IORING_CQE_F_TSTAMP_HW = 1 << IORING_TIMESTAMP_HW_SHIFT;
    }
}

/// Every constant group of this module: the opcodes first, then their flags.
pub(crate) const CONSTS: &[CGroup] =
    &with_first::<{ FLAG_CONSTS.len() + 1 }>(OPCODE_GROUP, FLAG_CONSTS);

/// `[first, rest...]` as an array of `N` groups (`N` is `rest.len() + 1`).
const fn with_first<const N: usize>(first: CGroup, rest: &[CGroup]) -> [CGroup; N] {
    let mut out = [first; N];
    let mut i = 0;
    while i < rest.len() {
        out[i + 1] = rest[i];
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests;
