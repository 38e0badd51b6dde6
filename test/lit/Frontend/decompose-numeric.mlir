// Numerical check of the decompositions, before and apart from code
// generation: ONNX test cases are imported, decomposed, evaluated by a numpy
// interpreter of the graph-level IR (Inputs/graph_eval.py) and compared with
// their reference outputs. '+frozen' makes integer inputs (slice bounds,
// pads, axes) constants first. Needs Debian's python3 with numpy and onnx.

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py %models/mlp %models/cnn %models/resblock %models/transformer | FileCheck %s --check-prefix=MODELS
// MODELS: 4 passed, 0 failed

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base /usr/include/onnx/backend/test/data/node \
// RUN:   test_add_bcast test_sub_bcast test_mul_bcast test_div_bcast \
// RUN:   test_pow_bcast_array test_pow_types_int64_int64 test_neg test_abs \
// RUN:   test_sqrt test_reciprocal test_exp test_log test_erf \
// RUN:   test_tanh test_sigmoid test_relu test_leakyrelu test_clip \
// RUN:   test_clip_default_int8_min test_hardsigmoid test_hardswish test_softplus \
// RUN:   test_softsign test_elu test_selu test_prelu_broadcast \
// RUN:   test_min_example test_max_example test_sum_example test_mean_example \
// RUN:   test_floor test_ceil test_round test_sign test_not_2d \
// RUN:   test_and_bcast4v3d test_or_bcast4v3d test_xor_bcast4v3d \
// RUN:   test_less_equal_bcast test_greater_equal_bcast test_equal_bcast test_sin \
// RUN:   test_cos test_where_example test_cast_FLOAT_to_FLOAT16 test_isinf \
// RUN:   test_isnan test_mod_mixed_sign_int32 test_bitshift_right_uint16 \
// RUN:   test_dropout_default_mask \
// RUN:   | FileCheck %s --check-prefix=ELEMENTWISE
// ELEMENTWISE: 50 passed, 0 failed

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base /usr/include/onnx/backend/test/data/node \
// RUN:   test_reduce_mean_keepdims_random test_reduce_max_do_not_keepdims_random \
// RUN:   test_reduce_min_negative_axes_keepdims_random test_reduce_prod_default_axes_keepdims_random \
// RUN:   test_reduce_l2_keep_dims_random test_reduce_log_sum_exp_keepdims_random \
// RUN:   test_reduce_sum_keepdims_random+frozen \
// RUN:   test_argmax_negative_axis_keepdims_random_select_last_index test_argmin_no_keepdims_random \
// RUN:   | FileCheck %s --check-prefix=REDUCE
// REDUCE: 9 passed, 0 failed

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base /usr/include/onnx/backend/test/data/node \
// RUN:   test_matmul_4d test_gemm_all_attributes test_conv_with_strides_and_asymmetric_padding \
// RUN:   test_conv_with_autopad_same test_maxpool_2d_ceil test_maxpool_2d_dilations \
// RUN:   test_maxpool_2d_same_lower test_averagepool_2d_pads \
// RUN:   test_averagepool_2d_pads_count_include_pad test_averagepool_2d_ceil \
// RUN:   test_globalaveragepool test_batchnorm_epsilon test_instancenorm_example \
// RUN:   test_layer_normalization_4d_axis_negative_2 test_softmax_axis_0 test_softmax_example \
// RUN:   test_logsoftmax_axis_1 test_convtranspose_pads test_convtranspose_dilations \
// RUN:   test_convtranspose_output_shape --base /usr/include/onnx/backend/test/data/pytorch-converted test_Conv2d_groups \
// RUN:   test_Conv1d_dilated test_Conv3d_stride_padding \
// RUN:   test_PReLU_2d_multiparam \
// RUN:   | FileCheck %s --check-prefix=NN
// NN: 24 passed, 0 failed

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base /usr/include/onnx/backend/test/data/node \
// RUN:   test_reshape_zero_and_negative_dim test_flatten_negative_axis2 \
// RUN:   test_squeeze_negative_axes test_unsqueeze_unsorted_axes \
// RUN:   test_transpose_all_permutations_3 test_concat_3d_axis_negative_2 \
// RUN:   test_gather_negative_indices test_gather_2d_indices test_expand_dim_changed \
// RUN:   test_tile test_split_variable_parts_2d test_depthtospace_crd_mode \
// RUN:   test_spacetodepth test_shape_start_1_end_negative_1 test_size \
// RUN:   test_constantofshape_int_zeros test_slice_neg_steps+frozen \
// RUN:   test_slice_start_out_of_bounds+frozen test_constant_pad+frozen \
// RUN:   test_reflect_pad+frozen test_edge_pad+frozen \
// RUN:   test_range_int32_type_negative_delta+frozen --base /usr/include/onnx/backend/test/data/pytorch-converted test_Embedding \
// RUN:   test_PixelShuffle \
// RUN:   | FileCheck %s --check-prefix=SHAPE
// SHAPE: 24 passed, 0 failed

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base /usr/include/onnx/backend/test/data/node \
// RUN:   test_cumsum_1d_reverse_exclusive+frozen test_cumsum_2d_negative_axis+frozen test_tril_neg test_triu_one_row \
// RUN:   test_eyelike_populate_off_main_diagonal test_hardmax_axis_0 test_gather_elements_negative_indices \
// RUN:   test_onehot_with_negative_axis test_shrink_soft test_tan test_sinh test_lrn test_mvn \
// RUN:   test_convtranspose_1d test_convtranspose_autopad_same \
// RUN:   | FileCheck %s --check-prefix=MORE
// MORE: 15 passed, 0 failed

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base /usr/include/onnx/backend/test/data/node \
// RUN:   test_nllloss_NCd1d2d3_none_no_weight_negative_ii test_nllloss_NCd1_mean_weight_negative_ii \
// RUN:   test_sce_mean_weight_ii_3d_log_prob test_sce_NCd1d2d3d4d5_mean_weight \
// RUN:   test_nllloss_NCd1d2_with_weight_reduction_sum_ii \
// RUN:   | FileCheck %s --check-prefix=LOSS
// LOSS: 5 passed, 0 failed

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base /usr/include/onnx/backend/test/data/node \
// RUN:   test_resize_upsample_scales_cubic_A_n0p5_exclude_outside+frozen:1 \
// RUN:   test_resize_downsample_scales_linear_align_corners+frozen:1 test_resize_tf_crop_and_resize+frozen:1,2 \
// RUN:   test_resize_upsample_sizes_nearest_ceil_half_pixel+frozen test_upsample_nearest+frozen:1 \
// RUN:   test_resize_downsample_scales_cubic_align_corners+frozen:1 \
// RUN:   | FileCheck %s --check-prefix=RESIZE
// RESIZE: 6 passed, 0 failed

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base /usr/include/onnx/backend/test/data/node \
// RUN:   test_atan test_acos test_asin test_mod_mixed_sign_float32 test_celu test_quantizelinear_axis \
// RUN:   test_dequantizelinear_axis test_dynamicquantizelinear test_qlinearmatmul_2D test_qlinearconv \
// RUN:   test_adagrad test_momentum test_adam \
// RUN:   | FileCheck %s --check-prefix=MATH
// MATH: 13 passed, 0 failed

// Adam over two tensors at T = 0 (no bias correction), with
// norm_coefficient; the case with the epsilon its outputs assume (see
// Inputs/make_adam_multiple.py).
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 %S/Inputs/make_adam_multiple.py /usr/include/onnx/backend/test/data/node %t/test_adam_multiple
// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py %t/test_adam_multiple | FileCheck %s --check-prefix=ADAM
// ADAM: PASS test_adam_multiple
// ADAM: 1 passed, 0 failed

// RoiAlign: max mode over two batch items with rois partly outside the
// map, avg with output_half_pixel and a spatial scale, against a loop
// implementation (Inputs/make_roialign.py). The ONNX cases' outputs are
// printed to 4 decimals, too coarse for this tolerance (conformance runs
// them).
// RUN: /usr/bin/python3 %S/Inputs/make_roialign.py %t
// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base %t roialign_max roialign_avg_scaled \
// RUN:   | FileCheck %s --check-prefix=ROIALIGN
// ROIALIGN: 2 passed, 0 failed

// RUN: /usr/bin/python3 %S/Inputs/check_decompose.py --base /usr/include/onnx/backend/test/data/node \
// RUN:   test_gru_defaults test_lstm_with_peepholes test_simple_rnn_with_initial_bias \
// RUN:   test_einsum_batch_diagonal test_einsum_batch_matmul test_scatternd_multiply \
// RUN:   test_scatter_elements_with_negative_indices test_gathernd_example_int32_batch_dim1 \
// RUN:   test_top_k_smallest+frozen test_gridsample_reflection_padding test_det_nd \
// RUN:   test_reversesequence_batch test_maxunpool_export_with_output_shape+frozen \
// RUN:   test_maxpool_with_argmax_2d_precomputed_pads test_batchnorm_example_training_mode \
// RUN:   test_compress_0+frozen:1 \
// RUN:   | FileCheck %s --check-prefix=INDEXING
// INDEXING: 16 passed, 0 failed
