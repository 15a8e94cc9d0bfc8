@_exported import NMEA
@_exported import NMEARendering
@_exported import NTRIP
@_exported import Signals
// The typed system error that device and network errors carry.
@_exported import struct Platform.Errno
