@_exported import NMEA
@_exported import NMEARendering
@_exported import NTRIP
@_exported import Signals
