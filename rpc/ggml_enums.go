// Code generated from the GGML_OP_NAME, GGML_UNARY_OP_NAME and GGML_GLU_OP_NAME tables of
// ggml 0.18.1 (the llama.cpp build in ../shared/tools/llama.cpp). DO NOT EDIT.

package rpc

// ggmlOp is ggml's enum ggml_op: the op id carried by rpc_tensor.op.
type ggmlOp uint32

const (
	ggmlOpNone ggmlOp = iota
	ggmlOpDup
	ggmlOpAdd
	ggmlOpAddId
	ggmlOpAdd1
	ggmlOpAcc
	ggmlOpSub
	ggmlOpMul
	ggmlOpDiv
	ggmlOpSqr
	ggmlOpSqrt
	ggmlOpLog
	ggmlOpSin
	ggmlOpCos
	ggmlOpSum
	ggmlOpSumRows
	ggmlOpCumsum
	ggmlOpMean
	ggmlOpArgmax
	ggmlOpCountEqual
	ggmlOpRepeat
	ggmlOpRepeatBack
	ggmlOpConcat
	ggmlOpSiluBack
	ggmlOpNorm
	ggmlOpRmsNorm
	ggmlOpRmsNormBack
	ggmlOpGroupNorm
	ggmlOpL2Norm
	ggmlOpMulMat
	ggmlOpMulMatId
	ggmlOpOutProd
	ggmlOpScale
	ggmlOpSet
	ggmlOpCpy
	ggmlOpCont
	ggmlOpReshape
	ggmlOpView
	ggmlOpPermute
	ggmlOpTranspose
	ggmlOpGetRows
	ggmlOpGetRowsBack
	ggmlOpSetRows
	ggmlOpDiag
	ggmlOpDiagMaskInf
	ggmlOpDiagMaskZero
	ggmlOpSoftMax
	ggmlOpSoftMaxBack
	ggmlOpRope
	ggmlOpRopeBack
	ggmlOpClamp
	ggmlOpConvTranspose1d
	ggmlOpIm2col
	ggmlOpIm2colBack
	ggmlOpIm2col3d
	ggmlOpCol2im1d
	ggmlOpConv2d
	ggmlOpConv3d
	ggmlOpConv2dDw
	ggmlOpConvTranspose2d
	ggmlOpPool1d
	ggmlOpPool2d
	ggmlOpPool2dBack
	ggmlOpUpscale
	ggmlOpPad
	ggmlOpPadReflect1d
	ggmlOpRoll
	ggmlOpArange
	ggmlOpTimestepEmbedding
	ggmlOpArgsort
	ggmlOpTopK
	ggmlOpLeakyRelu
	ggmlOpTri
	ggmlOpFill
	ggmlOpFlashAttnExt
	ggmlOpFlashAttnBack
	ggmlOpSsmConv
	ggmlOpSsmScan
	ggmlOpWinPart
	ggmlOpWinUnpart
	ggmlOpGetRelPos
	ggmlOpAddRelPos
	ggmlOpRwkvWkv6
	ggmlOpGatedLinearAttn
	ggmlOpRwkvWkv7
	ggmlOpSolveTri
	ggmlOpGatedDeltaNet
	ggmlOpLightningIndexer
	ggmlOpDsv4HcComb
	ggmlOpDsv4HcPre
	ggmlOpDsv4HcPost
	ggmlOpUnary
	ggmlOpMapCustom1
	ggmlOpMapCustom2
	ggmlOpMapCustom3
	ggmlOpCustom
	ggmlOpCrossEntropyLoss
	ggmlOpCrossEntropyLossBack
	ggmlOpOptStepAdamw
	ggmlOpOptStepSgd
	ggmlOpGlu
	ggmlOpCount
)

var ggmlOpNames = [ggmlOpCount]string{"NONE", "DUP", "ADD", "ADD_ID", "ADD1", "ACC", "SUB", "MUL", "DIV", "SQR", "SQRT", "LOG", "SIN", "COS", "SUM", "SUM_ROWS", "CUMSUM", "MEAN", "ARGMAX", "COUNT_EQUAL", "REPEAT", "REPEAT_BACK", "CONCAT", "SILU_BACK", "NORM", "RMS_NORM", "RMS_NORM_BACK", "GROUP_NORM", "L2_NORM", "MUL_MAT", "MUL_MAT_ID", "OUT_PROD", "SCALE", "SET", "CPY", "CONT", "RESHAPE", "VIEW", "PERMUTE", "TRANSPOSE", "GET_ROWS", "GET_ROWS_BACK", "SET_ROWS", "DIAG", "DIAG_MASK_INF", "DIAG_MASK_ZERO", "SOFT_MAX", "SOFT_MAX_BACK", "ROPE", "ROPE_BACK", "CLAMP", "CONV_TRANSPOSE_1D", "IM2COL", "IM2COL_BACK", "IM2COL_3D", "COL2IM_1D", "CONV_2D", "CONV_3D", "CONV_2D_DW", "CONV_TRANSPOSE_2D", "POOL_1D", "POOL_2D", "POOL_2D_BACK", "UPSCALE", "PAD", "PAD_REFLECT_1D", "ROLL", "ARANGE", "TIMESTEP_EMBEDDING", "ARGSORT", "TOP_K", "LEAKY_RELU", "TRI", "FILL", "FLASH_ATTN_EXT", "FLASH_ATTN_BACK", "SSM_CONV", "SSM_SCAN", "WIN_PART", "WIN_UNPART", "GET_REL_POS", "ADD_REL_POS", "RWKV_WKV6", "GATED_LINEAR_ATTN", "RWKV_WKV7", "SOLVE_TRI", "GATED_DELTA_NET", "LIGHTNING_INDEXER", "DSV4_HC_COMB", "DSV4_HC_PRE", "DSV4_HC_POST", "UNARY", "MAP_CUSTOM1", "MAP_CUSTOM2", "MAP_CUSTOM3", "CUSTOM", "CROSS_ENTROPY_LOSS", "CROSS_ENTROPY_LOSS_BACK", "OPT_STEP_ADAMW", "OPT_STEP_SGD", "GLU"}

// ggmlUnaryOp is ggml's enum ggml_unary_op, op_params[0] of a UNARY node.
type ggmlUnaryOp int32

const (
	ggmlUnaryAbs ggmlUnaryOp = iota
	ggmlUnarySgn
	ggmlUnaryNeg
	ggmlUnaryStep
	ggmlUnaryTanh
	ggmlUnaryElu
	ggmlUnaryRelu
	ggmlUnarySigmoid
	ggmlUnaryGelu
	ggmlUnaryGeluQuick
	ggmlUnarySilu
	ggmlUnaryHardswish
	ggmlUnaryHardsigmoid
	ggmlUnaryExp
	ggmlUnaryExpm1
	ggmlUnarySoftplus
	ggmlUnaryGeluErf
	ggmlUnaryXielu
	ggmlUnaryFloor
	ggmlUnaryCeil
	ggmlUnaryRound
	ggmlUnaryTrunc
	ggmlUnaryCount
)

var ggmlUnaryNames = [ggmlUnaryCount]string{"ABS", "SGN", "NEG", "STEP", "TANH", "ELU", "RELU", "SIGMOID", "GELU", "GELU_QUICK", "SILU", "HARDSWISH", "HARDSIGMOID", "EXP", "EXPM1", "SOFTPLUS", "GELU_ERF", "XIELU", "FLOOR", "CEIL", "ROUND", "TRUNC"}

// ggmlGluOp is ggml's enum ggml_glu_op, op_params[0] of a GLU node.
type ggmlGluOp int32

const (
	ggmlGluReglu ggmlGluOp = iota
	ggmlGluGeglu
	ggmlGluSwiglu
	ggmlGluSwigluOai
	ggmlGluGegluErf
	ggmlGluGegluQuick
	ggmlGluCount
)

var ggmlGluNames = [ggmlGluCount]string{"REGLU", "GEGLU", "SWIGLU", "SWIGLU_OAI", "GEGLU_ERF", "GEGLU_QUICK"}
