// libmosquitto, and with it OpenSSL's libssl and libcrypto (3 MB mapped, part of it written
// by relocation at load), is loaded only by the commands that speak MQTT: `serve`, `read`
// and the rest do not carry it. Each mosquitto_ function the program calls is defined here
// with the header's own prototype (so the compiler checks it) and calls the library's.
#include <pthread.h>
#include <stddef.h>
#include "CPlatform.h"
#include "CMosquitto.h"

// Returning functions: type, name, parameters, arguments, what a call returns unloaded.
#define RETURNING(X) \
    X(int, mosquitto_lib_init, (void), (), MOSQ_ERR_NOT_SUPPORTED) \
    X(struct mosquitto *, mosquitto_new, (const char *id, bool clean_session, void *obj), (id, clean_session, obj), NULL) \
    X(int, mosquitto_connect_async, (struct mosquitto *mosq, const char *host, int port, int keepalive), \
      (mosq, host, port, keepalive), MOSQ_ERR_NOT_SUPPORTED) \
    X(int, mosquitto_disconnect, (struct mosquitto *mosq), (mosq), MOSQ_ERR_NOT_SUPPORTED) \
    X(int, mosquitto_int_option, (struct mosquitto *mosq, enum mosq_opt_t option, int value), (mosq, option, value), \
      MOSQ_ERR_NOT_SUPPORTED) \
    X(int, mosquitto_loop_start, (struct mosquitto *mosq), (mosq), MOSQ_ERR_NOT_SUPPORTED) \
    X(int, mosquitto_loop_stop, (struct mosquitto *mosq, bool force), (mosq, force), MOSQ_ERR_NOT_SUPPORTED) \
    X(int, mosquitto_publish, (struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, \
      int qos, bool retain), (mosq, mid, topic, payloadlen, payload, qos, retain), MOSQ_ERR_NOT_SUPPORTED) \
    X(int, mosquitto_reconnect_delay_set, (struct mosquitto *mosq, unsigned int reconnect_delay, \
      unsigned int reconnect_delay_max, bool reconnect_exponential_backoff), \
      (mosq, reconnect_delay, reconnect_delay_max, reconnect_exponential_backoff), MOSQ_ERR_NOT_SUPPORTED) \
    X(int, mosquitto_subscribe, (struct mosquitto *mosq, int *mid, const char *sub, int qos), (mosq, mid, sub, qos), \
      MOSQ_ERR_NOT_SUPPORTED) \
    X(int, mosquitto_tls_set, (struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile, \
      const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)), \
      (mosq, cafile, capath, certfile, keyfile, pw_callback), MOSQ_ERR_NOT_SUPPORTED) \
    X(int, mosquitto_username_pw_set, (struct mosquitto *mosq, const char *username, const char *password), \
      (mosq, username, password), MOSQ_ERR_NOT_SUPPORTED) \
    X(const char *, mosquitto_connack_string, (int connack_code), (connack_code), "libmosquitto is not loaded") \
    X(const char *, mosquitto_strerror, (int mosq_errno), (mosq_errno), "libmosquitto is not loaded")

// Functions returning nothing: name, parameters, arguments.
#define VOID(X) \
    X(mosquitto_destroy, (struct mosquitto *mosq), (mosq)) \
    X(mosquitto_user_data_set, (struct mosquitto *mosq, void *obj), (mosq, obj)) \
    X(mosquitto_connect_callback_set, (struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)), \
      (mosq, on_connect)) \
    X(mosquitto_disconnect_callback_set, (struct mosquitto *mosq, \
      void (*on_disconnect)(struct mosquitto *, void *, int)), (mosq, on_disconnect)) \
    X(mosquitto_publish_callback_set, (struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int)), \
      (mosq, on_publish)) \
    X(mosquitto_message_callback_set, (struct mosquitto *mosq, \
      void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)), (mosq, on_message)) \
    X(mosquitto_log_callback_set, (struct mosquitto *mosq, \
      void (*on_log)(struct mosquitto *, void *, int, const char *)), (mosq, on_log))

#define POINTER(type, name, parameters, arguments, unloaded) static type (*loaded_##name) parameters;
#define VOID_POINTER(name, parameters, arguments) static void (*loaded_##name) parameters;
RETURNING(POINTER)
VOID(VOID_POINTER)

#define NAME(type, name, parameters, arguments, unloaded) #name,
#define SLOT(type, name, parameters, arguments, unloaded) (void **)&loaded_##name,
#define VOID_NAME(name, parameters, arguments) #name,
#define VOID_SLOT(name, parameters, arguments) (void **)&loaded_##name,
static const char *const names[] = { RETURNING(NAME) VOID(VOID_NAME) };
static void **const slots[] = { RETURNING(SLOT) VOID(VOID_SLOT) };

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char message[512];

static void load(void) {
    failure = nmeastream_load_library("libmosquitto.so.1", names, slots, sizeof names / sizeof names[0], message, sizeof message);
}

const char *nmeastream_mosquitto_load(void) {
    pthread_once(&once, load);
    return failure;
}

#define FORWARD(type, name, parameters, arguments, unloaded) \
    type name parameters { \
        return nmeastream_mosquitto_load() == NULL ? loaded_##name arguments : unloaded; \
    }
#define FORWARD_VOID(name, parameters, arguments) \
    void name parameters { \
        if (nmeastream_mosquitto_load() == NULL) loaded_##name arguments; \
    }
RETURNING(FORWARD)
VOID(FORWARD_VOID)
