// Eclipse Mosquitto's MQTT client library (package libmosquitto-dev), as the CMosquitto module.
#include <mosquitto.h>
