//! Structures of `liburing/io_uring.h` (and `__kernel_timespec`).

/// `struct __kernel_timespec` of `<linux/time_types.h>`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct __kernel_timespec {
    pub tv_sec: i64,
    pub tv_nsec: i64,
}

/// A submission queue entry (64 bytes; 128 on `IORING_SETUP_SQE128` rings,
/// where the extra 64 bytes continue the `cmd` area).
///
/// Each C anonymous union is one Rust field, named after its usual member;
/// the other members are aliases of the same bytes:
///
/// | Rust field     | C aliases (bytes)                                        |
/// |----------------|----------------------------------------------------------|
/// | `off`          | `addr2`; `cmd_op` + `__pad1`                             |
/// | `addr`         | `splice_off_in`; `level` + `optname`                     |
/// | `rw_flags`     | every per-opcode flag word (`fsync_flags`, `msg_flags`, `timeout_flags`, `accept_flags`, `cancel_flags`, `open_flags`, `statx_flags`, `fadvise_advice`, `splice_flags`, `rename_flags`, `unlink_flags`, `hardlink_flags`, `xattr_flags`, `msg_ring_flags`, `uring_cmd_flags`, `waitid_flags`, `futex_flags`, `install_fd_flags`, `nop_flags`, `pipe_flags`, `poll32_events`, `sync_range_flags`); `poll_events` |
/// | `buf_index`    | `buf_group`                                              |
/// | `splice_fd_in` | `file_index`, `zcrx_ifq_idx`, `optlen`; `addr_len` + `__pad3` |
/// | `addr3`        | `attr_ptr`, `optval`; `cmd` starts here                  |
/// | `__pad2[0]`    | `attr_type_mask`                                         |
///
/// The accessor methods below read and write the aliases that do not cover
/// a whole field, in the machine's byte order.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_sqe {
    /// `IORING_OP_*`.
    pub opcode: u8,
    /// `IOSQE_*`.
    pub flags: u8,
    pub ioprio: u16,
    pub fd: i32,
    pub off: u64,
    pub addr: u64,
    pub len: u32,
    /// The per-opcode flag word (C: a union of `__kernel_rwf_t rw_flags` and
    /// twenty-odd `__u32` aliases).
    pub rw_flags: u32,
    pub user_data: u64,
    pub buf_index: u16,
    pub personality: u16,
    pub splice_fd_in: i32,
    /// Start of the command area of `IORING_OP_URING_CMD` (16 bytes here,
    /// 80 on SQE128 rings); overlays `addr3` and `__pad2`.
    pub cmd: [u8; 0],
    pub addr3: u64,
    pub __pad2: [u64; 1],
}

/// Reads the 32-bit half of `word` that sits at byte `4 * idx` in memory.
#[inline]
const fn u32_in_u64(word: u64, idx: usize) -> u32 {
    let b = word.to_ne_bytes();
    let i = idx * 4;
    u32::from_ne_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

/// Replaces the 32-bit half of `word` at byte `4 * idx` in memory.
#[inline]
const fn with_u32_in_u64(word: u64, idx: usize, value: u32) -> u64 {
    let mut b = word.to_ne_bytes();
    let v = value.to_ne_bytes();
    let i = idx * 4;
    b[i] = v[0];
    b[i + 1] = v[1];
    b[i + 2] = v[2];
    b[i + 3] = v[3];
    u64::from_ne_bytes(b)
}

/// Reads the 16-bit half of `word` that sits at byte `2 * idx` in memory.
#[inline]
const fn u16_in_u32(word: u32, idx: usize) -> u16 {
    let b = word.to_ne_bytes();
    u16::from_ne_bytes([b[idx * 2], b[idx * 2 + 1]])
}

/// Replaces the 16-bit half of `word` at byte `2 * idx` in memory.
#[inline]
const fn with_u16_in_u32(word: u32, idx: usize, value: u16) -> u32 {
    let mut b = word.to_ne_bytes();
    let v = value.to_ne_bytes();
    b[idx * 2] = v[0];
    b[idx * 2 + 1] = v[1];
    u32::from_ne_bytes(b)
}

impl io_uring_sqe {
    /// An all-zero SQE.
    pub const ZEROED: Self = Self {
        opcode: 0,
        flags: 0,
        ioprio: 0,
        fd: 0,
        off: 0,
        addr: 0,
        len: 0,
        rw_flags: 0,
        user_data: 0,
        buf_index: 0,
        personality: 0,
        splice_fd_in: 0,
        cmd: [],
        addr3: 0,
        __pad2: [0],
    };

    /// `sqe->addr2` (same bytes as `off`).
    #[inline]
    pub fn addr2(&self) -> u64 {
        self.off
    }
    #[inline]
    pub fn set_addr2(&mut self, v: u64) {
        self.off = v;
    }
    /// `sqe->cmd_op`: the first 4 bytes of `off`.
    #[inline]
    pub fn cmd_op(&self) -> u32 {
        u32_in_u64(self.off, 0)
    }
    #[inline]
    pub fn set_cmd_op(&mut self, v: u32) {
        self.off = with_u32_in_u64(self.off, 0, v);
    }
    /// `sqe->__pad1`: the last 4 bytes of `off`.
    #[inline]
    pub fn set_pad1(&mut self, v: u32) {
        self.off = with_u32_in_u64(self.off, 1, v);
    }
    /// `sqe->splice_off_in` (same bytes as `addr`).
    #[inline]
    pub fn splice_off_in(&self) -> u64 {
        self.addr
    }
    #[inline]
    pub fn set_splice_off_in(&mut self, v: u64) {
        self.addr = v;
    }
    /// `sqe->level`: the first 4 bytes of `addr`.
    #[inline]
    pub fn level(&self) -> u32 {
        u32_in_u64(self.addr, 0)
    }
    #[inline]
    pub fn set_level(&mut self, v: u32) {
        self.addr = with_u32_in_u64(self.addr, 0, v);
    }
    /// `sqe->optname`: the last 4 bytes of `addr`.
    #[inline]
    pub fn optname(&self) -> u32 {
        u32_in_u64(self.addr, 1)
    }
    #[inline]
    pub fn set_optname(&mut self, v: u32) {
        self.addr = with_u32_in_u64(self.addr, 1, v);
    }
    /// `sqe->poll_events`: the first 2 bytes of the flag word.
    #[inline]
    pub fn poll_events(&self) -> u16 {
        u16_in_u32(self.rw_flags, 0)
    }
    #[inline]
    pub fn set_poll_events(&mut self, v: u16) {
        self.rw_flags = with_u16_in_u32(self.rw_flags, 0, v);
    }
    /// The per-opcode flag word under any of its C names (`msg_flags`,
    /// `timeout_flags`, `poll32_events`, ...).
    #[inline]
    pub fn op_flags(&self) -> u32 {
        self.rw_flags
    }
    #[inline]
    pub fn set_op_flags(&mut self, v: u32) {
        self.rw_flags = v;
    }
    /// `sqe->buf_group` (same bytes as `buf_index`).
    #[inline]
    pub fn buf_group(&self) -> u16 {
        self.buf_index
    }
    #[inline]
    pub fn set_buf_group(&mut self, v: u16) {
        self.buf_index = v;
    }
    /// `sqe->file_index` (same bytes as `splice_fd_in`).
    #[inline]
    pub fn file_index(&self) -> u32 {
        self.splice_fd_in as u32
    }
    #[inline]
    pub fn set_file_index(&mut self, v: u32) {
        self.splice_fd_in = v as i32;
    }
    /// `sqe->zcrx_ifq_idx` (same bytes as `splice_fd_in`).
    #[inline]
    pub fn set_zcrx_ifq_idx(&mut self, v: u32) {
        self.splice_fd_in = v as i32;
    }
    /// `sqe->optlen` (same bytes as `splice_fd_in`).
    #[inline]
    pub fn set_optlen(&mut self, v: u32) {
        self.splice_fd_in = v as i32;
    }
    /// `sqe->addr_len`: the first 2 bytes of `splice_fd_in`.
    #[inline]
    pub fn addr_len(&self) -> u16 {
        u16_in_u32(self.splice_fd_in as u32, 0)
    }
    #[inline]
    pub fn set_addr_len(&mut self, v: u16) {
        self.splice_fd_in = with_u16_in_u32(self.splice_fd_in as u32, 0, v) as i32;
    }
    /// `sqe->__pad3[0]`: the last 2 bytes of `splice_fd_in`.
    #[inline]
    pub fn set_pad3(&mut self, v: u16) {
        self.splice_fd_in = with_u16_in_u32(self.splice_fd_in as u32, 1, v) as i32;
    }
    /// `sqe->attr_ptr` (same bytes as `addr3`).
    #[inline]
    pub fn attr_ptr(&self) -> u64 {
        self.addr3
    }
    #[inline]
    pub fn set_attr_ptr(&mut self, v: u64) {
        self.addr3 = v;
    }
    /// `sqe->attr_type_mask` (same bytes as `__pad2[0]`).
    #[inline]
    pub fn attr_type_mask(&self) -> u64 {
        self.__pad2[0]
    }
    #[inline]
    pub fn set_attr_type_mask(&mut self, v: u64) {
        self.__pad2[0] = v;
    }
    /// `sqe->optval` (same bytes as `addr3`).
    #[inline]
    pub fn optval(&self) -> u64 {
        self.addr3
    }
    #[inline]
    pub fn set_optval(&mut self, v: u64) {
        self.addr3 = v;
    }
    /// `sqe->cmd`: start of the command area (16 bytes in a 64-byte SQE,
    /// 80 in a 128-byte one). Computed from the raw pointer so that the
    /// result keeps `sqe`'s provenance (a ring pointer reaches the whole
    /// 128-byte entry; `&mut` to one `io_uring_sqe` would only reach 64).
    #[inline]
    pub fn cmd_ptr(sqe: *mut Self) -> *mut u8 {
        sqe.cast::<u8>()
            .wrapping_add(core::mem::offset_of!(Self, cmd))
    }
}

/// Protection-information attribute (`IORING_RW_ATTR_FLAG_PI`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_attr_pi {
    pub flags: u16,
    pub app_tag: u16,
    pub len: u32,
    pub addr: u64,
    pub seed: u64,
    pub rsvd: u64,
}

/// A completion queue entry (16 bytes; 32 on `IORING_SETUP_CQE32` rings,
/// where `big_cqe` holds two more words).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_cqe {
    pub user_data: u64,
    pub res: i32,
    /// `IORING_CQE_F_*`, buffer id in the top 16 bits.
    pub flags: u32,
    pub big_cqe: [u64; 0],
}

impl io_uring_cqe {
    /// `cqe->big_cqe`: the extra 16 bytes of a 32-byte CQE at `cqe` (the
    /// result keeps `cqe`'s provenance).
    #[inline]
    pub fn big_cqe_ptr(cqe: *const Self) -> *const u64 {
        cqe.cast::<u8>()
            .wrapping_add(core::mem::offset_of!(Self, big_cqe))
            .cast::<u64>()
    }
}

/// Offsets of the SQ ring fields in its mapping (from `io_uring_setup`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_sqring_offsets {
    pub head: u32,
    pub tail: u32,
    pub ring_mask: u32,
    pub ring_entries: u32,
    pub flags: u32,
    pub dropped: u32,
    pub array: u32,
    pub resv1: u32,
    /// With `IORING_SETUP_NO_MMAP`: the application's ring memory.
    pub user_addr: u64,
}

/// Offsets of the CQ ring fields in its mapping (from `io_uring_setup`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_cqring_offsets {
    pub head: u32,
    pub tail: u32,
    pub ring_mask: u32,
    pub ring_entries: u32,
    pub overflow: u32,
    pub cqes: u32,
    pub flags: u32,
    pub resv1: u32,
    /// With `IORING_SETUP_NO_MMAP`: the application's ring memory.
    pub user_addr: u64,
}

/// Argument of `io_uring_setup(2)`, filled in by the kernel on success.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_params {
    pub sq_entries: u32,
    pub cq_entries: u32,
    /// `IORING_SETUP_*`.
    pub flags: u32,
    pub sq_thread_cpu: u32,
    pub sq_thread_idle: u32,
    /// `IORING_FEAT_*` (output).
    pub features: u32,
    pub wq_fd: u32,
    pub resv: [u32; 3],
    pub sq_off: io_sqring_offsets,
    pub cq_off: io_cqring_offsets,
}

/// Old argument of `IORING_REGISTER_FILES_UPDATE` (see `io_uring_rsrc_update`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_files_update {
    pub offset: u32,
    pub resv: u32,
    /// Pointer to an array of `__s32` fds.
    pub fds: u64,
}

/// A memory region (rings, wait arguments, zcrx refill queue).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_region_desc {
    pub user_addr: u64,
    pub size: u64,
    /// `IORING_MEM_REGION_TYPE_*`.
    pub flags: u32,
    pub id: u32,
    pub mmap_offset: u64,
    pub __resv: [u64; 4],
}

/// Argument of `IORING_REGISTER_MEM_REGION`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_mem_region_reg {
    /// Pointer to an [`io_uring_region_desc`].
    pub region_uptr: u64,
    /// `IORING_MEM_REGION_REG_*`.
    pub flags: u64,
    pub __resv: [u64; 2],
}

/// Argument of `IORING_REGISTER_FILES2` / `IORING_REGISTER_BUFFERS2`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_rsrc_register {
    pub nr: u32,
    /// `IORING_RSRC_REGISTER_*`.
    pub flags: u32,
    pub resv2: u64,
    pub data: u64,
    pub tags: u64,
}

/// Argument of `IORING_REGISTER_FILES_UPDATE`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_rsrc_update {
    pub offset: u32,
    pub resv: u32,
    pub data: u64,
}

/// Argument of `IORING_REGISTER_FILES_UPDATE2` / `IORING_REGISTER_BUFFERS_UPDATE`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_rsrc_update2 {
    pub offset: u32,
    pub resv: u32,
    pub data: u64,
    pub tags: u64,
    pub nr: u32,
    pub resv2: u32,
}

/// One opcode in an [`io_uring_probe`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_probe_op {
    pub op: u8,
    pub resv: u8,
    /// `IO_URING_OP_*`.
    pub flags: u16,
    pub resv2: u32,
}

/// Header of the `IORING_REGISTER_PROBE` answer; `ops_len` entries follow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_probe {
    pub last_op: u8,
    pub ops_len: u8,
    pub resv: u16,
    pub resv2: [u32; 3],
    pub ops: [io_uring_probe_op; 0],
}

impl io_uring_probe {
    /// `probe->ops`: the entries following the header at `probe` (the
    /// result keeps `probe`'s provenance).
    #[inline]
    pub fn ops_ptr(probe: *mut Self) -> *mut io_uring_probe_op {
        probe
            .cast::<u8>()
            .wrapping_add(core::mem::offset_of!(Self, ops))
            .cast::<io_uring_probe_op>()
    }
}

/// One entry of `IORING_REGISTER_RESTRICTIONS`.
///
/// C's union of `register_op`, `sqe_op` and `sqe_flags` (all `__u8`) is the
/// field `register_op`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_restriction {
    /// `IORING_RESTRICTION_*`.
    pub opcode: u16,
    pub register_op: u8,
    pub resv: u8,
    pub resv2: [u32; 3],
}

impl io_uring_restriction {
    /// `sqe_op` (same byte as `register_op`).
    #[inline]
    pub fn set_sqe_op(&mut self, v: u8) {
        self.register_op = v;
    }
    /// `sqe_flags` (same byte as `register_op`).
    #[inline]
    pub fn set_sqe_flags(&mut self, v: u8) {
        self.register_op = v;
    }
}

/// Header of a set of restrictions applied to a task; entries follow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_task_restriction {
    pub flags: u16,
    pub nr_res: u16,
    pub resv: [u32; 3],
    pub restrictions: [io_uring_restriction; 0],
}

/// Argument of `IORING_REGISTER_CLOCK`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_clock_register {
    pub clockid: u32,
    pub __resv: [u32; 3],
}

/// Argument of `IORING_REGISTER_CLONE_BUFFERS`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_clone_buffers {
    pub src_fd: u32,
    /// `IORING_REGISTER_SRC_REGISTERED`, `IORING_REGISTER_DST_REPLACE`.
    pub flags: u32,
    pub src_off: u32,
    pub dst_off: u32,
    pub nr: u32,
    pub pad: [u32; 3],
}

/// One provided buffer in a buffer ring.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_buf {
    pub addr: u64,
    pub len: u32,
    pub bid: u16,
    pub resv: u16,
}

/// A provided-buffer ring: an array of [`io_uring_buf`] whose first entry's
/// `resv` field doubles as the ring tail.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_buf_ring {
    /// The ring entries, starting at offset 0 (overlaying the fields below).
    pub bufs: [io_uring_buf; 0],
    pub resv1: u64,
    pub resv2: u32,
    pub resv3: u16,
    /// Written by the application with release semantics.
    pub tail: u16,
}

impl io_uring_buf_ring {
    /// Pointer to entry 0 of the ring at `br` (the ring is as long as
    /// registered; the result keeps `br`'s provenance).
    #[inline]
    pub fn bufs_ptr(br: *mut Self) -> *mut io_uring_buf {
        br.cast::<io_uring_buf>()
    }
}

/// Argument of `IORING_REGISTER_PBUF_RING` / `IORING_UNREGISTER_PBUF_RING`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_buf_reg {
    pub ring_addr: u64,
    pub ring_entries: u32,
    pub bgid: u16,
    /// `IOU_PBUF_RING_*`.
    pub flags: u16,
    pub min_left: u32,
    pub resv: [u32; 5],
}

/// Argument of `IORING_REGISTER_PBUF_STATUS`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_buf_status {
    /// Input: the buffer group.
    pub buf_group: u32,
    /// Output: the kernel's head.
    pub head: u32,
    pub resv: [u32; 8],
}

/// Argument of `IORING_REGISTER_NAPI` / `IORING_UNREGISTER_NAPI`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_napi {
    pub busy_poll_to: u32,
    pub prefer_busy_poll: u8,
    pub pad: [u8; 3],
    pub resv: u64,
}

/// A registered wait argument (`IORING_ENTER_EXT_ARG_REG`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_reg_wait {
    pub ts: __kernel_timespec,
    pub min_wait_usec: u32,
    /// `IORING_REG_WAIT_*`.
    pub flags: u32,
    pub sigmask: u64,
    pub sigmask_sz: u32,
    pub pad: [u32; 3],
    pub pad2: [u64; 2],
}

/// Argument of `io_uring_enter(2)` with `IORING_ENTER_EXT_ARG`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_getevents_arg {
    pub sigmask: u64,
    pub sigmask_sz: u32,
    pub min_wait_usec: u32,
    /// Pointer to a [`__kernel_timespec`].
    pub ts: u64,
}

/// Argument of `IORING_REGISTER_SYNC_CANCEL`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_sync_cancel_reg {
    pub addr: u64,
    pub fd: i32,
    /// `IORING_ASYNC_CANCEL_*`.
    pub flags: u32,
    pub timeout: __kernel_timespec,
    pub opcode: u8,
    pub pad: [u8; 7],
    pub pad2: [u64; 3],
}

/// Argument of `IORING_REGISTER_FILE_ALLOC_RANGE`: slots `[off, off + len)`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_file_index_range {
    pub off: u32,
    pub len: u32,
    pub resv: u64,
}

/// Header a multishot recvmsg writes at the start of each buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_recvmsg_out {
    pub namelen: u32,
    pub controllen: u32,
    pub payloadlen: u32,
    pub flags: u32,
}

/// Unsigned timespec used by io_uring timestamps.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_timespec {
    pub tv_sec: u64,
    pub tv_nsec: u64,
}

/// Zero-copy receive refill queue entry.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_rqe {
    pub off: u64,
    pub len: u32,
    pub __pad: u32,
}

/// Extra half of a 32-byte CQE posted by a zero-copy receive.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_cqe {
    pub off: u64,
    pub __pad: u64,
}

/// Offsets of the zcrx refill ring fields in its region.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_offsets {
    pub head: u32,
    pub tail: u32,
    pub rqes: u32,
    pub __resv2: u32,
    pub __resv: [u64; 2],
}

/// A receive area for zero-copy receive.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_area_reg {
    pub addr: u64,
    pub len: u64,
    pub rq_area_token: u64,
    /// `IORING_ZCRX_AREA_*`.
    pub flags: u32,
    pub dmabuf_fd: u32,
    pub __resv2: [u64; 2],
}

/// Argument of `IORING_REGISTER_ZCRX_IFQ`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct io_uring_zcrx_ifq_reg {
    pub if_idx: u32,
    pub if_rxq: u32,
    pub rq_entries: u32,
    /// `ZCRX_REG_*`.
    pub flags: u32,
    /// Pointer to an [`io_uring_zcrx_area_reg`].
    pub area_ptr: u64,
    /// Pointer to an [`io_uring_region_desc`].
    pub region_ptr: u64,
    pub offsets: io_uring_zcrx_offsets,
    pub zcrx_id: u32,
    pub rx_buf_len: u32,
    pub __resv: [u64; 3],
}

/// `ZCRX_CTRL_FLUSH_RQ` payload of [`zcrx_ctrl`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zcrx_ctrl_flush_rq {
    pub __resv: [u64; 6],
}

/// `ZCRX_CTRL_EXPORT` payload of [`zcrx_ctrl`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zcrx_ctrl_export {
    pub zcrx_fd: u32,
    pub __resv1: [u32; 11],
}

/// Argument of `IORING_REGISTER_ZCRX_CTRL`.
///
/// C's anonymous union of `zc_export` and `zc_flush` (both 48 bytes) is the
/// field `zc_export`; `zc_flush` carries nothing but reserved words.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zcrx_ctrl {
    pub zcrx_id: u32,
    /// `ZCRX_CTRL_*`.
    pub op: u32,
    pub __resv: [u64; 2],
    pub zc_export: zcrx_ctrl_export,
}

c_layout! {
    pub(crate) static LAYOUTS;
    __kernel_timespec (16, 8) {
        tv_sec: 0, 8;
        tv_nsec: 8, 8;
    }
    io_uring_sqe (64, 8) {
        opcode: 0, 1;
        flags: 1, 1;
        ioprio: 2, 2;
        fd: 4, 4;
        off: 8, 8;
        addr: 16, 8;
        len: 24, 4;
        rw_flags: 28, 4;
        user_data: 32, 8;
        buf_index: 40, 2;
        personality: 42, 2;
        splice_fd_in: 44, 4;
        cmd: 48, 0;
        addr3: 48, 8;
        __pad2: 56, 8;
    } + c_only {
        addr2: 8, 8;
        cmd_op: 8, 4;
        __pad1: 12, 4;
        splice_off_in: 16, 8;
        level: 16, 4;
        optname: 20, 4;
        fsync_flags: 28, 4;
        poll_events: 28, 2;
        poll32_events: 28, 4;
        sync_range_flags: 28, 4;
        msg_flags: 28, 4;
        timeout_flags: 28, 4;
        accept_flags: 28, 4;
        cancel_flags: 28, 4;
        open_flags: 28, 4;
        statx_flags: 28, 4;
        fadvise_advice: 28, 4;
        splice_flags: 28, 4;
        rename_flags: 28, 4;
        unlink_flags: 28, 4;
        hardlink_flags: 28, 4;
        xattr_flags: 28, 4;
        msg_ring_flags: 28, 4;
        uring_cmd_flags: 28, 4;
        waitid_flags: 28, 4;
        futex_flags: 28, 4;
        install_fd_flags: 28, 4;
        nop_flags: 28, 4;
        pipe_flags: 28, 4;
        buf_group: 40, 2;
        file_index: 44, 4;
        zcrx_ifq_idx: 44, 4;
        optlen: 44, 4;
        addr_len: 44, 2;
        __pad3: 46, 2;
        attr_ptr: 48, 8;
        attr_type_mask: 56, 8;
        optval: 48, 8;
    }
    io_uring_attr_pi (32, 8) {
        flags: 0, 2;
        app_tag: 2, 2;
        len: 4, 4;
        addr: 8, 8;
        seed: 16, 8;
        rsvd: 24, 8;
    }
    io_uring_cqe (16, 8) {
        user_data: 0, 8;
        res: 8, 4;
        flags: 12, 4;
        big_cqe: 16, 0;
    }
    io_sqring_offsets (40, 8) {
        head: 0, 4;
        tail: 4, 4;
        ring_mask: 8, 4;
        ring_entries: 12, 4;
        flags: 16, 4;
        dropped: 20, 4;
        array: 24, 4;
        resv1: 28, 4;
        user_addr: 32, 8;
    }
    io_cqring_offsets (40, 8) {
        head: 0, 4;
        tail: 4, 4;
        ring_mask: 8, 4;
        ring_entries: 12, 4;
        overflow: 16, 4;
        cqes: 20, 4;
        flags: 24, 4;
        resv1: 28, 4;
        user_addr: 32, 8;
    }
    io_uring_params (120, 8) {
        sq_entries: 0, 4;
        cq_entries: 4, 4;
        flags: 8, 4;
        sq_thread_cpu: 12, 4;
        sq_thread_idle: 16, 4;
        features: 20, 4;
        wq_fd: 24, 4;
        resv: 28, 12;
        sq_off: 40, 40;
        cq_off: 80, 40;
    } + c_only {
        sq_off.user_addr: 72, 8;
        cq_off.user_addr: 112, 8;
    }
    io_uring_files_update (16, 8) {
        offset: 0, 4;
        resv: 4, 4;
        fds: 8, 8;
    }
    io_uring_region_desc (64, 8) {
        user_addr: 0, 8;
        size: 8, 8;
        flags: 16, 4;
        id: 20, 4;
        mmap_offset: 24, 8;
        __resv: 32, 32;
    }
    io_uring_mem_region_reg (32, 8) {
        region_uptr: 0, 8;
        flags: 8, 8;
        __resv: 16, 16;
    }
    io_uring_rsrc_register (32, 8) {
        nr: 0, 4;
        flags: 4, 4;
        resv2: 8, 8;
        data: 16, 8;
        tags: 24, 8;
    }
    io_uring_rsrc_update (16, 8) {
        offset: 0, 4;
        resv: 4, 4;
        data: 8, 8;
    }
    io_uring_rsrc_update2 (32, 8) {
        offset: 0, 4;
        resv: 4, 4;
        data: 8, 8;
        tags: 16, 8;
        nr: 24, 4;
        resv2: 28, 4;
    }
    io_uring_probe_op (8, 4) {
        op: 0, 1;
        resv: 1, 1;
        flags: 2, 2;
        resv2: 4, 4;
    }
    io_uring_probe (16, 4) {
        last_op: 0, 1;
        ops_len: 1, 1;
        resv: 2, 2;
        resv2: 4, 12;
        ops: 16, 0;
    }
    io_uring_restriction (16, 4) {
        opcode: 0, 2;
        register_op: 2, 1;
        resv: 3, 1;
        resv2: 4, 12;
    } + c_only {
        sqe_op: 2, 1;
        sqe_flags: 2, 1;
    }
    io_uring_task_restriction (16, 4) {
        flags: 0, 2;
        nr_res: 2, 2;
        resv: 4, 12;
        restrictions: 16, 0;
    }
    io_uring_clock_register (16, 4) {
        clockid: 0, 4;
        __resv: 4, 12;
    }
    io_uring_clone_buffers (32, 4) {
        src_fd: 0, 4;
        flags: 4, 4;
        src_off: 8, 4;
        dst_off: 12, 4;
        nr: 16, 4;
        pad: 20, 12;
    }
    io_uring_buf (16, 8) {
        addr: 0, 8;
        len: 8, 4;
        bid: 12, 2;
        resv: 14, 2;
    }
    io_uring_buf_ring (16, 8) {
        bufs: 0, 0;
        resv1: 0, 8;
        resv2: 8, 4;
        resv3: 12, 2;
        tail: 14, 2;
    }
    io_uring_buf_reg (40, 8) {
        ring_addr: 0, 8;
        ring_entries: 8, 4;
        bgid: 12, 2;
        flags: 14, 2;
        min_left: 16, 4;
        resv: 20, 20;
    }
    io_uring_buf_status (40, 4) {
        buf_group: 0, 4;
        head: 4, 4;
        resv: 8, 32;
    }
    io_uring_napi (16, 8) {
        busy_poll_to: 0, 4;
        prefer_busy_poll: 4, 1;
        pad: 5, 3;
        resv: 8, 8;
    }
    io_uring_reg_wait (64, 8) {
        ts: 0, 16;
        min_wait_usec: 16, 4;
        flags: 20, 4;
        sigmask: 24, 8;
        sigmask_sz: 32, 4;
        pad: 36, 12;
        pad2: 48, 16;
    }
    io_uring_getevents_arg (24, 8) {
        sigmask: 0, 8;
        sigmask_sz: 8, 4;
        min_wait_usec: 12, 4;
        ts: 16, 8;
    }
    io_uring_sync_cancel_reg (64, 8) {
        addr: 0, 8;
        fd: 8, 4;
        flags: 12, 4;
        timeout: 16, 16;
        opcode: 32, 1;
        pad: 33, 7;
        pad2: 40, 24;
    }
    io_uring_file_index_range (16, 8) {
        off: 0, 4;
        len: 4, 4;
        resv: 8, 8;
    }
    io_uring_recvmsg_out (16, 4) {
        namelen: 0, 4;
        controllen: 4, 4;
        payloadlen: 8, 4;
        flags: 12, 4;
    }
    io_timespec (16, 8) {
        tv_sec: 0, 8;
        tv_nsec: 8, 8;
    }
    io_uring_zcrx_rqe (16, 8) {
        off: 0, 8;
        len: 8, 4;
        __pad: 12, 4;
    }
    io_uring_zcrx_cqe (16, 8) {
        off: 0, 8;
        __pad: 8, 8;
    }
    io_uring_zcrx_offsets (32, 8) {
        head: 0, 4;
        tail: 4, 4;
        rqes: 8, 4;
        __resv2: 12, 4;
        __resv: 16, 16;
    }
    io_uring_zcrx_area_reg (48, 8) {
        addr: 0, 8;
        len: 8, 8;
        rq_area_token: 16, 8;
        flags: 24, 4;
        dmabuf_fd: 28, 4;
        __resv2: 32, 16;
    }
    io_uring_zcrx_ifq_reg (96, 8) {
        if_idx: 0, 4;
        if_rxq: 4, 4;
        rq_entries: 8, 4;
        flags: 12, 4;
        area_ptr: 16, 8;
        region_ptr: 24, 8;
        offsets: 32, 32;
        zcrx_id: 64, 4;
        rx_buf_len: 68, 4;
        __resv: 72, 24;
    }
    zcrx_ctrl_flush_rq (48, 8) {
        __resv: 0, 48;
    }
    zcrx_ctrl_export (48, 4) {
        zcrx_fd: 0, 4;
        __resv1: 4, 44;
    }
    zcrx_ctrl (72, 8) {
        zcrx_id: 0, 4;
        op: 4, 4;
        __resv: 8, 16;
        zc_export: 24, 48;
    } + c_only {
        zc_flush: 24, 48;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqe_aliases_hit_the_c_bytes() {
        let mut sqe = io_uring_sqe::ZEROED;
        sqe.set_cmd_op(0x1122_3344);
        sqe.set_pad1(0x5566_7788);
        assert_eq!(sqe.cmd_op(), 0x1122_3344);
        // cmd_op is the first four bytes of the `off` word in memory.
        assert_eq!(sqe.off.to_ne_bytes()[..4], 0x1122_3344u32.to_ne_bytes());
        assert_eq!(sqe.off.to_ne_bytes()[4..], 0x5566_7788u32.to_ne_bytes());
        sqe.set_level(1);
        sqe.set_optname(2);
        assert_eq!((sqe.level(), sqe.optname()), (1, 2));
        assert_eq!(sqe.addr.to_ne_bytes()[..4], 1u32.to_ne_bytes());
        sqe.set_poll_events(0xabcd);
        assert_eq!(sqe.rw_flags.to_ne_bytes()[..2], 0xabcdu16.to_ne_bytes());
        sqe.set_addr_len(16);
        sqe.set_pad3(0);
        assert_eq!(sqe.addr_len(), 16);
        assert_eq!(sqe.splice_fd_in.to_ne_bytes()[..2], 16u16.to_ne_bytes());
        sqe.set_file_index(crate::uapi::IORING_FILE_INDEX_ALLOC);
        assert_eq!(sqe.splice_fd_in, -1);
        let p: *mut io_uring_sqe = &mut sqe;
        assert_eq!(io_uring_sqe::cmd_ptr(p) as usize - p as usize, 48);
    }

    #[test]
    fn flexible_arrays_follow_their_headers() {
        let mut probe = io_uring_probe::default();
        let p: *mut io_uring_probe = &mut probe;
        assert_eq!(io_uring_probe::ops_ptr(p) as usize - p as usize, 16);
        let cqe = io_uring_cqe::default();
        let c: *const io_uring_cqe = &cqe;
        assert_eq!(io_uring_cqe::big_cqe_ptr(c) as usize - c as usize, 16);
        let mut br = io_uring_buf_ring::default();
        let b: *mut io_uring_buf_ring = &mut br;
        assert_eq!(io_uring_buf_ring::bufs_ptr(b) as usize, b as usize);
    }
}
