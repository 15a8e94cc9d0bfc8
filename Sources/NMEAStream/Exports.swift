@_exported import NMEA
@_exported import Signals
