#!/usr/bin/env python3
"""Writes an LLM-shaped decoder with 4-bit weights as an ONNX model for the model benchmark
(bench/models, issue 23): batch-1 token decoding with a fixed KV length. Each layer: RMSNorm,
q/k/v projections, the new key and value appended to a past of --kv positions (graph inputs
past_key_I / past_value_I [1, heads, kv, head]), softmax attention, the output projection and a
residual add, then RMSNorm, a SwiGLU MLP (silu(gate) * up, down) and a residual add; a final
RMSNorm. No rotary embedding and no LM head: the benchmark is about the 4-bit products.
--kv-heads H (default: --heads) makes the attention grouped-query (GQA, as TinyLlama's 32 heads
share 4 key/value heads): k and v project to H heads, past_key_I / past_value_I are [1, H, kv,
head], and the heads / H query heads of group g (heads g * heads / H ...) attend to key/value head g
(the queries reshaped to [1, H, heads / H * S, head], so the products stay per key/value head).
--tokens S (default 1) makes the same decoder take S new tokens at once (a prompt: x [1, S,
hidden], y [1, S, hidden]); token i attends to the past and to new tokens 0..i, through a constant
causal mask of 0 and -1e9 [1, 1, S, kv + S] added to the scores. Every
linear layer is ONNX Runtime's com.microsoft MatMulNBits (bits 4, the given block size,
symmetric: no zero points, so 8 for every block, as GGUF's Q4_0), quantized from seeded random
float32 weights scaled by 1/sqrt(input); each block's scale is rounded to float16 first (and the
4-bit values computed with the rounded scale), so that the same weights can be written as GGUF.
The weights are stored as external data beside the model (OUT.data), as large models are.
--gguf OUT.gguf also writes the SAME weights as a GGUF v3 file (llama.cpp's tensor names:
blk.L.attn_q.weight ... ffn_down.weight as q4_0, blk.L.attn_norm.weight, blk.L.ffn_norm.weight and
output_norm.weight as f32; metadata llama.* for the shape and webnn.kv_length), for
webnn_decoder_bench (bench/decoder_bench.cpp). Needs Debian's python3-onnx and python3-numpy.
    make_decoder_onnx.py OUT.onnx [--layers 4] [--hidden 2048] [--heads 16] [--kv-heads 16]
        [--ffn 5632] [--kv 128] [--tokens 1] [--block 32] [--accuracy-level 0] [--gguf OUT.gguf]
"""
import argparse
import os
import struct

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save


def quantize_q4(weight, block):
    """MatMulNBits' B, scales for weight [K, N]: per column, blocks of `block` along K, symmetric
    (q = round(w / scale) + 8 in [0, 15], scale = max|w| / 7 rounded to float16, the rounded value
    used for q). Also returns q [N, K / block, block] and the float16 scales [N, K / block], the
    same weights as GGUF's q4_0 holds them."""
    k, n = weight.shape
    blocks = k // block
    w = weight.T.reshape(n, blocks, block)
    scale = np.abs(w).max(axis=2, keepdims=True) / 7.0
    scale[scale == 0] = 1.0
    half = scale.astype(np.float16)
    half[half == 0] = np.float16(2.0 ** -24)  # a scale below float16's range: the smallest one
    rounded = half.astype(np.float32)
    q = np.clip(np.rint(w / rounded) + 8, 0, 15).astype(np.uint8)
    packed = (q[:, :, 0::2] | (q[:, :, 1::2] << 4)).astype(np.uint8)  # low nibble first
    return packed, rounded.reshape(n * blocks), q, half.reshape(n, blocks)


# GGUF (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md) metadata value types and the
# ggml tensor types written here.
GGUF_UINT32, GGUF_FLOAT32, GGUF_STRING = 4, 6, 8
GGML_F32, GGML_Q4_0 = 0, 2


def q4_0_bytes(q, half):
    """ggml's block_q4_0 for q [N, K / 32, 32] (values 0..15) and float16 scales [N, K / 32]: per
    block the float16 d, then 16 bytes, byte j = element j | element j + 16 << 4."""
    assert q.shape[2] == 32, "q4_0 blocks are 32 elements"
    n, blocks = half.shape
    qs = (q[:, :, :16] | (q[:, :, 16:] << 4)).astype(np.uint8)
    d = np.ascontiguousarray(half, dtype="<f2").view(np.uint8).reshape(n, blocks, 2)
    return np.concatenate([d, qs], axis=2).tobytes()


def write_gguf(path, metadata, tensors, alignment=32):
    """GGUF version 3, little-endian. metadata: [(key, type, value)]; tensors: [(name, dims
    fastest-varying first, ggml type, bytes)], each at an offset aligned to `alignment`."""
    def string(text):
        raw = text.encode("utf-8")
        return struct.pack("<Q", len(raw)) + raw

    def value(kind, v):
        if kind == GGUF_UINT32:
            return struct.pack("<I", v)
        if kind == GGUF_FLOAT32:
            return struct.pack("<f", v)
        if kind == GGUF_STRING:
            return string(v)
        raise ValueError(f"metadata type {kind} is not written here")

    metadata = [("general.alignment", GGUF_UINT32, alignment)] + list(metadata)
    header = bytearray(b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(metadata)))
    for key, kind, v in metadata:
        header += string(key) + struct.pack("<I", kind) + value(kind, v)
    offset = 0
    offsets = []
    for name, dims, kind, data in tensors:
        offset += -offset % alignment
        offsets.append(offset)
        header += string(name) + struct.pack("<I", len(dims))
        header += struct.pack(f"<{len(dims)}Q", *dims) + struct.pack("<IQ", kind, offset)
        offset += len(data)
    header += b"\0" * (-len(header) % alignment)
    with open(path, "wb") as f:
        f.write(header)
        written = 0
        for (name, dims, kind, data), at in zip(tensors, offsets):
            f.write(b"\0" * (at - written))
            f.write(data)
            written = at + len(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=2048)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument("--kv-heads", type=int, default=0, help="key/value heads (default: --heads)")
    parser.add_argument("--ffn", type=int, default=5632)
    parser.add_argument("--kv", type=int, default=128)
    parser.add_argument("--tokens", type=int, default=1)
    parser.add_argument("--block", type=int, default=32)
    parser.add_argument("--accuracy-level", type=int, default=0)
    parser.add_argument("--gguf", help="also write the same weights as this GGUF file (q4_0)")
    o = parser.parse_args()
    hidden, heads, head = o.hidden, o.heads, o.hidden // o.heads
    assert head * heads == hidden and hidden % o.block == 0 and o.ffn % o.block == 0
    kv_heads = o.kv_heads or heads
    assert heads % kv_heads == 0, "--heads must be a multiple of --kv-heads"
    group = heads // kv_heads  # query heads per key/value head
    assert o.tokens >= 1
    tokens = o.tokens
    if o.gguf and o.block != 32:
        parser.error("--gguf needs --block 32 (q4_0's block)")
    gguf_tensors = []  # (name, ggml dims, ggml type, bytes), in the order they are made
    rng = np.random.default_rng(23)
    nodes, initializers, inputs = [], [], []
    counter = [0]

    def name(prefix):
        counter[0] += 1
        return f"{prefix}_{counter[0]}"

    def const(value, prefix):
        tensor = numpy_helper.from_array(np.asarray(value), name(prefix))
        initializers.append(tensor)
        return tensor.name

    def node(op, ins, attrs=None, domain=None, prefix=None):
        out = name(prefix or op.lower())
        nodes.append(helper.make_node(op, ins, [out], domain=domain, **(attrs or {})))
        return out

    def linear(x, k, n, label, gguf_name):
        weight = (rng.uniform(-1, 1, (k, n)) / np.sqrt(k)).astype(np.float32)
        packed, scales, q, half = quantize_q4(weight, o.block)
        if o.gguf:  # ggml dims [K, N]: rows of K, as WebNN's [N, K]
            gguf_tensors.append((gguf_name, [k, n], GGML_Q4_0, q4_0_bytes(q, half)))
        b = numpy_helper.from_array(packed, f"{label}.qweight")
        s = numpy_helper.from_array(scales, f"{label}.scales")
        initializers.extend([b, s])
        return node("MatMulNBits", [x, b.name, s.name],
                    {"K": k, "N": n, "bits": 4, "block_size": o.block,
                     "accuracy_level": o.accuracy_level}, domain="com.microsoft", prefix=label)

    eps = const(np.array(1e-6, np.float32), "eps")
    two = const(np.array(2.0, np.float32), "two")

    def rms_norm(x, label, gguf_name):
        values = (1.0 + 0.1 * rng.standard_normal(hidden)).astype(np.float32)
        gamma = const(values, f"{label}.weight")
        if o.gguf:
            gguf_tensors.append((gguf_name, [hidden], GGML_F32, values.astype("<f4").tobytes()))
        mean = node("ReduceMean", [node("Pow", [x, two])], {"axes": [-1], "keepdims": 1})
        root = node("Sqrt", [node("Add", [mean, eps])])
        return node("Mul", [node("Div", [x, root]), gamma], prefix=label)

    def heads_of(x, length, count=heads):  # [1, length, count * head] -> [1, count, length, head]
        shape = const(np.array([1, length, count, head], np.int64), "shape")
        return node("Transpose", [node("Reshape", [x, shape])], {"perm": [0, 2, 1, 3]})

    x = "x"
    inputs.append(helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, tokens, hidden]))
    scale = const(np.array(1.0 / np.sqrt(head), np.float32), "attention_scale")
    merged = const(np.array([1, tokens, hidden], np.int64), "shape")
    if tokens > 1:  # new token i sees the past (kv) and new tokens 0..i
        allowed = np.arange(o.kv + tokens)[None, :] <= o.kv + np.arange(tokens)[:, None]
        mask = np.where(allowed, 0.0, -1e9).astype(np.float32)[None, None]
        # With GQA the scores' rows are (query head in the group, token): the mask once per head.
        mask = const(np.tile(mask, (1, 1, group, 1)), "causal_mask")
    if group > 1:
        grouped = const(np.array([1, kv_heads, group * tokens, head], np.int64), "shape")
        ungrouped = const(np.array([1, heads, tokens, head], np.int64), "shape")
    for layer in range(o.layers):
        p, g = f"layers.{layer}", f"blk.{layer}"
        past_key, past_value = f"past_key_{layer}", f"past_value_{layer}"
        for past in (past_key, past_value):
            inputs.append(helper.make_tensor_value_info(past, TensorProto.FLOAT, [1, kv_heads, o.kv, head]))
        h = rms_norm(x, f"{p}.input_norm", f"{g}.attn_norm.weight")
        kv_size = kv_heads * head
        q = heads_of(linear(h, hidden, hidden, f"{p}.q_proj", f"{g}.attn_q.weight"), tokens)
        k = heads_of(linear(h, hidden, kv_size, f"{p}.k_proj", f"{g}.attn_k.weight"), tokens, kv_heads)
        v = heads_of(linear(h, hidden, kv_size, f"{p}.v_proj", f"{g}.attn_v.weight"), tokens, kv_heads)
        if group > 1:
            q = node("Reshape", [q, grouped])
        keys = node("Concat", [past_key, k], {"axis": 2})
        values = node("Concat", [past_value, v], {"axis": 2})
        scores = node("Mul", [node("MatMul", [q, node("Transpose", [keys], {"perm": [0, 1, 3, 2]})]), scale])
        if tokens > 1:
            scores = node("Add", [scores, mask])
        attended = node("MatMul", [node("Softmax", [scores], {"axis": -1}), values])
        if group > 1:
            attended = node("Reshape", [attended, ungrouped])
        attended = node("Reshape", [node("Transpose", [attended], {"perm": [0, 2, 1, 3]}), merged])
        x = node("Add", [x, linear(attended, hidden, hidden, f"{p}.o_proj", f"{g}.attn_output.weight")])
        h = rms_norm(x, f"{p}.post_attention_norm", f"{g}.ffn_norm.weight")
        gate = linear(h, hidden, o.ffn, f"{p}.gate_proj", f"{g}.ffn_gate.weight")
        up = linear(h, hidden, o.ffn, f"{p}.up_proj", f"{g}.ffn_up.weight")
        silu = node("Mul", [gate, node("Sigmoid", [gate])])
        down = linear(node("Mul", [silu, up]), o.ffn, hidden, f"{p}.down_proj", f"{g}.ffn_down.weight")
        x = node("Add", [x, down])
    y = rms_norm(x, "final_norm", "output_norm.weight")
    nodes.append(helper.make_node("Identity", [y], ["y"]))
    graph = helper.make_graph(nodes, "decoder_q4", inputs,
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, tokens, hidden])],
                              initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    data = os.path.basename(o.out) + ".data"
    if os.path.exists(o.out + ".data"):
        os.remove(o.out + ".data")
    save(model, o.out, save_as_external_data=True, all_tensors_to_one_file=True, location=data,
         size_threshold=1024)
    weight_bytes = sum(t.ByteSize() for t in model.graph.initializer)
    print(f"{o.out}: {o.layers} layers, hidden {hidden}, {heads} heads ({kv_heads} key/value), "
          f"ffn {o.ffn}, kv {o.kv}, "
          f"{tokens} token(s), "
          f"4-bit blocks of {o.block}, {os.path.getsize(o.out + '.data') / 2**20:.1f} MiB of weights")
    if o.gguf:
        metadata = [
            ("general.architecture", GGUF_STRING, "llama"),
            ("general.name", GGUF_STRING, "webnn-cpp decoder benchmark (issue 23)"),
            ("general.file_type", GGUF_UINT32, 2),  # LLAMA_FTYPE_MOSTLY_Q4_0
            ("llama.block_count", GGUF_UINT32, o.layers),
            ("llama.context_length", GGUF_UINT32, o.kv + tokens),
            ("llama.embedding_length", GGUF_UINT32, hidden),
            ("llama.feed_forward_length", GGUF_UINT32, o.ffn),
            ("llama.attention.head_count", GGUF_UINT32, heads),
            ("llama.attention.head_count_kv", GGUF_UINT32, kv_heads),
            ("llama.attention.layer_norm_rms_epsilon", GGUF_FLOAT32, 1e-6),
            ("webnn.kv_length", GGUF_UINT32, o.kv),
        ]
        write_gguf(o.gguf, metadata, gguf_tensors)
        print(f"{o.gguf}: the same weights as GGUF (q4_0), {len(gguf_tensors)} tensors, "
              f"{os.path.getsize(o.gguf) / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
