//! A minimal Rust program reporting progress through libactivity.
//!
//!     cargo run --offline --manifest-path Examples/rust/Cargo.toml   (build.rs asks pkg-config)
//!     ACTIVITY_SINK=stderr Examples/rust/target/debug/activity-demo

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_double, c_int, c_void};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};

/// The library's opaque handle.
#[repr(C)]
pub struct Activity {
    _private: [u8; 0],
}

/// `activity_status` in activity.h. Statuses and levels are types of their own, as in C, so a
/// level passed where a status belongs does not compile.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct ActivityStatus(c_int);
pub const ACTIVITY_STATUS_SUCCESS: ActivityStatus = ActivityStatus(0);
pub const ACTIVITY_STATUS_FAILURE: ActivityStatus = ActivityStatus(1);
pub const ACTIVITY_STATUS_CANCELLED: ActivityStatus = ActivityStatus(2);

/// `activity_level` in activity.h.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct ActivityLevel(c_int);
pub const ACTIVITY_LEVEL_INFO: ActivityLevel = ActivityLevel(1);

#[link(name = "activity")]
unsafe extern "C" {
    fn activity_version() -> *const c_char;
    fn activity_begin(parent: *mut Activity, title: *const c_char, total: c_double, unit: *const c_char)
        -> *mut Activity;
    fn activity_advance(a: *mut Activity, delta: c_double) -> c_int;
    fn activity_set_message(a: *mut Activity, message: *const c_char) -> c_int;
    fn activity_log(a: *mut Activity, level: ActivityLevel, message: *const c_char) -> c_int;
    fn activity_end(a: *mut Activity, status: ActivityStatus, message: *const c_char) -> c_int;
    fn activity_id(a: *const Activity) -> *const c_char;
    fn activity_begin_cancellable(
        parent: *mut Activity, title: *const c_char, total: c_double, unit: *const c_char,
    ) -> *mut Activity;
    fn activity_cancel_requested(a: *const Activity) -> c_int;
    fn activity_set_cancel_handler(
        a: *mut Activity, handler: Option<extern "C" fn(*mut Activity, *mut c_void)>, context: *mut c_void,
    ) -> c_int;
}

/// Called on the library's thread when the person watching cancels: only sets a flag.
extern "C" fn on_cancel(_a: *mut Activity, context: *mut c_void) {
    let flag = unsafe { &*(context as *const AtomicBool) };
    flag.store(true, Ordering::Relaxed);
}

fn main() {
    let title = CString::new("Crunching numbers").unwrap();
    let unit = CString::new("blocks").unwrap();
    let done = CString::new("all blocks checked").unwrap();
    unsafe {
        let version = CStr::from_ptr(activity_version()).to_string_lossy();
        let crunch = activity_begin(ptr::null_mut(), title.as_ptr(), 64.0, unit.as_ptr());
        let id = CStr::from_ptr(activity_id(crunch)).to_string_lossy().into_owned();
        for block in 0..64 {
            if block == 32 {
                let message = CString::new("halfway").unwrap();
                activity_set_message(crunch, message.as_ptr());
            }
            activity_advance(crunch, 1.0);
        }
        let check = CString::new("Verifying").unwrap();
        let verify = activity_begin(crunch, check.as_ptr(), -1.0, ptr::null());
        let note = CString::new(format!("libactivity {} says hello from Rust", version)).unwrap();
        activity_log(verify, ACTIVITY_LEVEL_INFO, note.as_ptr());
        let failed = CString::new("checksum mismatch in block 7").unwrap();
        activity_end(verify, ACTIVITY_STATUS_FAILURE, failed.as_ptr());
        assert_eq!(activity_advance(crunch, -1.0), -22); // -EINVAL: nothing written
        activity_end(crunch, ACTIVITY_STATUS_SUCCESS, done.as_ptr());
        println!("crunched under {}", id);

        // Work the person watching may cancel (Esc in `activity run --mode overlay`): the loop
        // checks activity_cancel_requested(), and the handler sets a flag of ours as well. Neither
        // fires here without a renderer that cancels, so the work runs to its end.
        static CANCELLED: AtomicBool = AtomicBool::new(false);
        let upload_title = CString::new("Uploading").unwrap();
        let upload = activity_begin_cancellable(ptr::null_mut(), upload_title.as_ptr(), 8.0, ptr::null());
        let context = &CANCELLED as *const AtomicBool as *mut c_void;
        activity_set_cancel_handler(upload, Some(on_cancel), context);
        for _ in 0..8 {
            if activity_cancel_requested(upload) != 0 || CANCELLED.load(Ordering::Relaxed) {
                break;
            }
            activity_advance(upload, 1.0);
        }
        let status =
            if activity_cancel_requested(upload) != 0 { ACTIVITY_STATUS_CANCELLED } else { ACTIVITY_STATUS_SUCCESS };
        activity_end(upload, status, ptr::null());
    }
}
