/**
 * The remote-instruction history (§2.1, §3 Instruction): a slot, because /instr and the device details
 * both show it. It owns its calls (the history page, the withdraw) and imports no feature.
 */
export { InstructionHistory, InstructionStatusTag, STATUS_COLOR, withdrawSecondsLeft } from './InstructionHistory';
export { HISTORY_REFRESH_MS, useInstructionHistory, useWithdraw, type HistoryQuery } from './api';
