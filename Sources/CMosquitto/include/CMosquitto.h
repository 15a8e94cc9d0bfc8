// Eclipse Mosquitto's MQTT client library (headers: libmosquitto-dev), as the CMosquitto
// module. The library itself is loaded when the first MQTT connection is made, not when the
// program starts: see mosquitto_loader.c.
#include <mosquitto.h>

/// Loads libmosquitto.so.1 once. Returns NULL when it is loaded, or why it could not be (the
/// loader's message); every mosquitto_ function here needs it loaded.
const char *nmeastream_mosquitto_load(void);
