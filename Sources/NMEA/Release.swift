/// nmeastream's release, written here only: the command's `--version`, the gpsd protocol's
/// `VERSION` (and so the live page's footer), and the Debian package's version all read it.
public enum NMEAStreamRelease {
    /// The version, `MAJOR.MINOR.PATCH` (semantic versioning; 0.x while the interfaces settle).
    public static let version = "0.1.0"
}
