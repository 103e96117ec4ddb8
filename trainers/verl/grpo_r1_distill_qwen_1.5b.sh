#!/usr/bin/env bash
# GRPO of DeepSeek-R1-Distill-Qwen-1.5B with verl 0.9 on FineReason puzzles (optionally mixed with math),
# rewarded by finereason.integrations.verl.compute_score: the TRL recipe's rewards (puzzle correctness +
# format; math rows through the same boxed-answer reader). GPU only: one node of 8 GPUs, vLLM rollouts.
# Hyperparameters follow trainers/recipes/DeepSeek-R1-Distill-Qwen-1.5B/grpo/config_mix_0.8.yaml (the paper's
# Table 7): lr 4e-5, warmup 0.1, 16 prompts x 7 generations = 112 completions per step, 1024/1024 tokens,
# KL coefficient 0.04, 1 epoch.
#   finereason export verl --tasks sudoku_state_checking sudoku_state_transition graph_coloring_state_checking \
#       graph_coloring_state_transition game_of_24_state_checking game_of_24_state_transition \
#       grid_puzzle_state_checking grid_puzzle_state_transition --train-size 250 --val-size 25 --out data/verl-finereason
#   bash trainers/verl/grpo_r1_distill_qwen_1.5b.sh                      # puzzles only
#   MATH_TRAIN=~/data/gsm8k/train.parquet bash trainers/verl/grpo_r1_distill_qwen_1.5b.sh   # + verl's gsm8k rows
# Extra arguments are passed to verl as Hydra overrides (e.g. trainer.n_gpus_per_node=4).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DATA="${DATA:-data/verl-finereason}"
TRAIN="['$DATA/train.parquet'${MATH_TRAIN:+,'$MATH_TRAIN'}]"
REWARD="$(python3 -c 'import finereason.integrations.verl as v; print(v.__file__)' 2>/dev/null || echo "$ROOT/finereason/integrations/verl/__init__.py")"

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    algorithm.use_kl_in_reward=false \
    data.train_files="$TRAIN" \
    data.val_files="['$DATA/validation.parquet']" \
    data.train_batch_size=16 \
    data.max_prompt_length=1024 \
    data.max_response_length=1024 \
    data.filter_overlong_prompts=true \
    data.truncation=error \
    actor_rollout_ref.model.path=deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B \
    actor_rollout_ref.model.use_remove_padding=true \
    actor_rollout_ref.model.enable_gradient_checkpointing=true \
    actor_rollout_ref.actor.optim.lr=4e-5 \
    actor_rollout_ref.actor.optim.lr_warmup_steps_ratio=0.1 \
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.actor.use_kl_loss=true \
    actor_rollout_ref.actor.kl_loss_coef=0.04 \
    actor_rollout_ref.actor.kl_loss_type=low_var_kl \
    actor_rollout_ref.actor.entropy_coeff=0 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=7 \
    actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \
    reward.custom_reward_function.path="$REWARD" \
    reward.custom_reward_function.name=compute_score \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1 \
    trainer.total_epochs=1 \
    trainer.save_freq=50 \
    trainer.test_freq=25 \
    trainer.logger='["console"]' \
    trainer.project_name=finereason \
    trainer.experiment_name=r1-distill-qwen-1.5b-grpo-verl \
    "$@"
