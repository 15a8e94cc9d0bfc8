@_exported import NMEA
@_exported import NMEARendering
@_exported import Signals
