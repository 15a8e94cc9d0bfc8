import ArgumentParser
import NMEAStream

/// `--min-mode`.
enum MinimumMode: String, ExpressibleByArgument, CaseIterable {
    case twoD = "2d"
    case threeD = "3d"

    var mode: FixMode { self == .twoD ? .twoD : .threeD }
}
