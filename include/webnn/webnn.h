// webnn-cpp: the W3C WebNN graph API in C++, with weightless graphs and copy-once constants.
#pragma once

#include "webnn/config.h"
#include "webnn/context.h"
#include "webnn/graph.h"
#include "webnn/graph_builder.h"
#include "webnn/op_support_limits.h"
#include "webnn/operand.h"
#include "webnn/options.h"
#include "webnn/tensor.h"
#include "webnn/types.h"
#include "webnn/weight_source.h"
