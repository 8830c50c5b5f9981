/* A thin C layer over libmgba (Debian's libmgba-dev 0.10): the parts of
 * `struct mCore` the Rust side needs, behind plain functions.
 *
 * mGBA logs through one process-wide logger; each runner records the thread it
 * runs on in a thread-local, so parallel tests get their own lines. */
#include <mgba/core/core.h>
#include <mgba/core/log.h>
#include <mgba/gba/core.h>
#include <mgba-util/vfs.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*tr_log_fn)(void* ctx, const char* category, int level, const char* message);

struct tr_runner {
	struct mCore* core;
	color_t* video;
	unsigned width;
	unsigned height;
	tr_log_fn log_fn;
	void* log_ctx;
};

static _Thread_local struct tr_runner* current;

static void tr_log(struct mLogger* logger, int category, enum mLogLevel level, const char* format, va_list args) {
	(void) logger;
	struct tr_runner* runner = current;
	if (!runner || !runner->log_fn) {
		return;
	}
	char message[1024];
	vsnprintf(message, sizeof(message), format, args);
	const char* id = mLogCategoryId(category);
	runner->log_fn(runner->log_ctx, id ? id : "?", (int) level, message);
}

static struct mLogger logger = { .log = tr_log, .filter = NULL };

struct tr_runner* tr_new(const void* rom, size_t rom_size, tr_log_fn log_fn, void* log_ctx) {
	mLogSetDefaultLogger(&logger);
	struct tr_runner* runner = calloc(1, sizeof(*runner));
	if (!runner) {
		return NULL;
	}
	runner->log_fn = log_fn;
	runner->log_ctx = log_ctx;
	current = runner;
	struct mCore* core = GBACoreCreate();
	if (!core || !core->init(core)) {
		free(runner);
		current = NULL;
		return NULL;
	}
	runner->core = core;
	mCoreInitConfig(core, NULL);
	core->desiredVideoDimensions(core, &runner->width, &runner->height);
	runner->video = calloc((size_t) runner->width * runner->height, sizeof(color_t));
	core->setVideoBuffer(core, runner->video, runner->width);
	/* The ROM is copied into a memory chunk owned by the core: nothing touches
	 * the file system, so no .sav appears next to the ROM. */
	struct VFile* vf = VFileMemChunk(rom, rom_size);
	if (!vf || !core->loadROM(core, vf)) {
		core->deinit(core);
		free(runner->video);
		free(runner);
		current = NULL;
		return NULL;
	}
	core->reset(core);
	current = NULL;
	return runner;
}

/* Battery save contents, if any (copied from `data`); call before running. */
int tr_load_save(struct tr_runner* runner, const void* data, size_t size) {
	struct VFile* vf = VFileMemChunk(data, size);
	if (!vf) {
		return 0;
	}
	current = runner;
	int ok = runner->core->loadSave(runner->core, vf);
	if (ok) {
		runner->core->reset(runner->core);
	}
	current = NULL;
	return ok;
}

/* Copies the battery save into a malloc'd buffer (free with tr_free). */
size_t tr_save_data(struct tr_runner* runner, void** out) {
	*out = NULL;
	return runner->core->savedataClone(runner->core, out);
}

void tr_free(void* p) {
	free(p);
}

void tr_delete(struct tr_runner* runner) {
	if (!runner) {
		return;
	}
	current = runner;
	runner->core->deinit(runner->core);
	current = NULL;
	free(runner->video);
	free(runner);
}

void tr_set_keys(struct tr_runner* runner, uint32_t keys) {
	runner->core->setKeys(runner->core, keys);
}

void tr_run_frame(struct tr_runner* runner) {
	current = runner;
	runner->core->runFrame(runner->core);
	current = NULL;
}

uint32_t tr_frame_counter(struct tr_runner* runner) {
	return runner->core->frameCounter(runner->core);
}

unsigned tr_width(struct tr_runner* runner) {
	return runner->width;
}

unsigned tr_height(struct tr_runner* runner) {
	return runner->height;
}

/* The last frame as BGR555 (the GBA's own colour format), width * height values. */
void tr_frame_bgr555(struct tr_runner* runner, uint16_t* out) {
	size_t n = (size_t) runner->width * runner->height;
	for (size_t i = 0; i < n; ++i) {
		color_t c = runner->video[i];
#ifdef COLOR_16_BIT
		out[i] = (uint16_t) c;
#else
		uint32_t r = (c & 0xFF) >> 3;
		uint32_t g = ((c >> 8) & 0xFF) >> 3;
		uint32_t b = ((c >> 16) & 0xFF) >> 3;
		out[i] = (uint16_t) (r | (g << 5) | (b << 10));
#endif
	}
}

uint32_t tr_read8(struct tr_runner* runner, uint32_t address) {
	return runner->core->rawRead8(runner->core, address, -1);
}

uint32_t tr_read16(struct tr_runner* runner, uint32_t address) {
	return runner->core->rawRead16(runner->core, address, -1);
}

uint32_t tr_read32(struct tr_runner* runner, uint32_t address) {
	return runner->core->rawRead32(runner->core, address, -1);
}
