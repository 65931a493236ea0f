// Turning FFmpeg's log lines into per-reader warnings. Why this is C: FFmpeg's log callback
// takes a va_list, which Swift can neither receive nor format. See include/CVideoIO.h.
#include "CVideoIO.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavutil/log.h>

// A sink keeps the first distinct messages and counts the rest: a damaged file can make a
// decoder complain once per slice, and a thousand copies of one line help nobody.
enum { CVIO_SINK_CAPACITY = 24, CVIO_MESSAGE_LENGTH = 256 };

struct cvio_log_entry {
    char text[CVIO_MESSAGE_LENGTH];
    unsigned long repeats;
};

struct cvio_log_sink {
    pthread_mutex_t lock;  // decoder threads log concurrently with the reader's own thread
    struct cvio_log_entry entries[CVIO_SINK_CAPACITY];
    int count;
    unsigned long dropped;
};

static atomic_int cvio_echo_level = AV_LOG_QUIET;
static _Thread_local cvio_log_sink *cvio_thread_sink = NULL;
static pthread_once_t cvio_callback_once = PTHREAD_ONCE_INIT;

// The sink an FFmpeg object logs to: its own through `opaque` for the two context kinds we
// create (and their per-thread copies), otherwise the calling thread's.
static cvio_log_sink *cvio_sink_for(void *object) {
    if (object != NULL) {
        const AVClass *objectClass = *(const AVClass **)object;
        if (objectClass == avcodec_get_class() && ((AVCodecContext *)object)->opaque != NULL) {
            return ((AVCodecContext *)object)->opaque;
        }
        if (objectClass == avformat_get_class() && ((AVFormatContext *)object)->opaque != NULL) {
            return ((AVFormatContext *)object)->opaque;
        }
    }
    return cvio_thread_sink;
}

// "mov,mp4,m4a,3gp,3g2,mj2" names one demuxer by all its aliases; the first is enough.
static void cvio_copy_object_name(void *object, char *buffer, size_t capacity) {
    buffer[0] = '\0';
    if (object == NULL) {
        return;
    }
    const AVClass *objectClass = *(const AVClass **)object;
    const char *name = objectClass->item_name != NULL ? objectClass->item_name(object) : objectClass->class_name;
    if (name != NULL && strcmp(name, "NULL") == 0 && objectClass == avcodec_get_class()) {
        // A codec context given no codec: the demuxer's parser logs through one. Named by its
        // codec id, the parser's "h264: Invalid NAL unit size" is the decoder's same line, and
        // the sink keeps it once instead of twice, one of them unnamed.
        enum AVCodecID codecID = ((AVCodecContext *)object)->codec_id;
        name = codecID != AV_CODEC_ID_NONE ? avcodec_get_name(codecID) : NULL;
    }
    if (name == NULL || strcmp(name, "NULL") == 0) {
        return;
    }
    size_t length = strcspn(name, ",");
    if (length >= capacity) {
        length = capacity - 1;
    }
    memcpy(buffer, name, length);
    buffer[length] = '\0';
}

static void cvio_log_callback(void *object, int level, const char *format, va_list arguments) {
    if (level <= atomic_load(&cvio_echo_level)) {
        va_list echoed;
        va_copy(echoed, arguments);
        av_log_default_callback(object, level, format, echoed);
        va_end(echoed);
    }
    if (level > AV_LOG_ERROR) {
        return;  // warnings and chatter: only shown when echoed
    }
    cvio_log_sink *sink = cvio_sink_for(object);
    if (sink == NULL) {
        return;
    }
    char text[CVIO_MESSAGE_LENGTH];
    vsnprintf(text, sizeof text, format, arguments);
    size_t length = strlen(text);
    while (length > 0 && isspace((unsigned char)text[length - 1])) {
        text[--length] = '\0';
    }
    if (length == 0) {
        return;
    }
    char name[64];
    cvio_copy_object_name(object, name, sizeof name);
    char line[CVIO_MESSAGE_LENGTH];
    if (name[0] != '\0') {
        snprintf(line, sizeof line, "%s: %s", name, text);
    } else {
        snprintf(line, sizeof line, "%s", text);
    }
    cvio_log_sink_add(sink, line);
}

static void cvio_install_callback(void) {
    av_log_set_level(AV_LOG_QUIET);
    av_log_set_callback(cvio_log_callback);
}

cvio_log_sink *cvio_log_sink_create(void) {
    pthread_once(&cvio_callback_once, cvio_install_callback);
    cvio_log_sink *sink = calloc(1, sizeof *sink);
    if (sink != NULL && pthread_mutex_init(&sink->lock, NULL) != 0) {
        free(sink);
        return NULL;
    }
    return sink;
}

void cvio_log_sink_destroy(cvio_log_sink *sink) {
    if (sink == NULL) {
        return;
    }
    if (cvio_thread_sink == sink) {
        cvio_thread_sink = NULL;
    }
    pthread_mutex_destroy(&sink->lock);
    free(sink);
}

void cvio_log_sink_add(cvio_log_sink *sink, const char *message) {
    pthread_mutex_lock(&sink->lock);
    for (int index = 0; index < sink->count; index++) {
        if (strncmp(sink->entries[index].text, message, CVIO_MESSAGE_LENGTH - 1) == 0) {
            sink->entries[index].repeats++;
            pthread_mutex_unlock(&sink->lock);
            return;
        }
    }
    if (sink->count < CVIO_SINK_CAPACITY) {
        struct cvio_log_entry *entry = &sink->entries[sink->count++];
        snprintf(entry->text, sizeof entry->text, "%s", message);
        entry->repeats = 1;
    } else {
        sink->dropped++;
    }
    pthread_mutex_unlock(&sink->lock);
}

int cvio_log_sink_count(cvio_log_sink *sink) {
    pthread_mutex_lock(&sink->lock);
    int count = sink->count + (sink->dropped > 0 ? 1 : 0);
    pthread_mutex_unlock(&sink->lock);
    return count;
}

bool cvio_log_sink_message(cvio_log_sink *sink, int index, char *buffer, size_t capacity) {
    if (capacity == 0 || index < 0) {
        return false;
    }
    bool found = true;
    pthread_mutex_lock(&sink->lock);
    if (index < sink->count) {
        const struct cvio_log_entry *entry = &sink->entries[index];
        if (entry->repeats > 1) {
            snprintf(buffer, capacity, "%s (repeated %lu times)", entry->text, entry->repeats);
        } else {
            snprintf(buffer, capacity, "%s", entry->text);
        }
    } else if (index == sink->count && sink->dropped > 0) {
        snprintf(buffer, capacity, "and %lu other messages", sink->dropped);
    } else {
        found = false;
    }
    pthread_mutex_unlock(&sink->lock);
    return found;
}

cvio_log_sink *cvio_log_route_thread(cvio_log_sink *sink) {
    cvio_log_sink *previous = cvio_thread_sink;
    cvio_thread_sink = sink;
    return previous;
}

void cvio_log_set_echo_level(int level) {
    pthread_once(&cvio_callback_once, cvio_install_callback);
    atomic_store(&cvio_echo_level, level);
    av_log_set_level(level);
}

int cvio_log_echo_level(void) { return atomic_load(&cvio_echo_level); }
