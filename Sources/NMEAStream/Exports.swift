@_exported import NMEA
