import CPlatform

/// A system error number, such as `EACCES`, as the operating system reported it.
public struct Errno: Error, Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The number (`errno.h`).
    public let rawValue: Int32

    /// Wraps a system error number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current error number.
    package static var current: Errno { Errno(rawValue: nmeastream_errno()) }

    /// The system's text for it, such as `Permission denied`.
    public var description: String { String(cString: strerror(rawValue)) }

    /// `EINTR`: a signal interrupted the call.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EAGAIN` (also `EWOULDBLOCK`): nothing to read, or no room to write, right now.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `EIO`: input/output error (a device unplugged while open).
    public static let ioError = Errno(rawValue: EIO)
    /// `ENXIO`: no such device or address.
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    /// `ENODEV`: no such device.
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// `EACCES`: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EPERM`: operation not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `EBUSY`: device or resource busy.
    public static let busy = Errno(rawValue: EBUSY)
    /// `ENOTTY`: not a terminal.
    public static let notATerminal = Errno(rawValue: ENOTTY)
    /// `EINVAL`: invalid argument.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `EROFS`: read-only file system.
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// `EEXIST`: file exists.
    public static let exists = Errno(rawValue: EEXIST)
    /// `EISDIR`: is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// `ENOSYS`: the kernel does not have the call (System V shared memory left out).
    public static let notImplemented = Errno(rawValue: ENOSYS)
    /// `ETIMEDOUT`: the time given ran out.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
}
