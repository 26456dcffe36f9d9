// Weight loads from a file off the main thread (MLGraph.loadConstants, MLContext.loadConstants):
// the arguments the JS side passes (path, names, options, onProgress), the load run on a libuv
// worker thread, progress posted back to the main thread as (done, total) pairs.
#pragma once

#include <napi.h>
#include <webnn/webnn.h>

#include <functional>

namespace webnn::node {

// What one load does with the opened source and the options built from the JS arguments.
using LoadConstants = std::function<void(const WeightSource& source, const LoadOptions& options)>;

// Reads (path, names, options, onProgress) from info[first...] and queues `load`; the promise
// settles with undefined or the load's error. `options` holds LoadOptions' plain members:
// requireAll (default true), reload, allowMapping, threads, chunkBytes, maxTensorBytes,
// maxTotalBytes (byte counts as Numbers or BigInts); a value of the wrong type throws TypeError
// naming it, before anything is queued.
Napi::Promise startLoad(const Napi::CallbackInfo& info, size_t first, LoadConstants load);

}  // namespace webnn::node
