import ArgumentParser

/// The command's exit codes, as `sysexits.h` names them (64, usage, is the argument
/// parser's own).
extension ExitCode {
    /// 65: the input holds no NMEA at all (a replayed file).
    static let dataError = ExitCode(65)
    /// 66: the input cannot be opened or read.
    static let noInput = ExitCode(66)
    /// 69: no receiver, or the device or udev cannot be used.
    static let unavailable = ExitCode(69)
    /// 73: a file or folder to write cannot be made (the publisher's queue folder).
    static let cannotCreate = ExitCode(73)
    /// 74: the device went away or failed while reading, the output could not be written,
    /// or messages were lost (the publisher).
    static let ioError = ExitCode(74)
    /// 75: no fix before `--timeout` (`ntrip`: no frame within `--seconds`).
    static let noFixInTime = ExitCode(75)
}
