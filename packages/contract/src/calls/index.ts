export { GetPublicKey, PasswordLogin, GetAccountSafeSetting, Heartbeat } from './auth.js';
export { Exit, ModifyLcid, GetAccountSetting, SetAccountSetting, GetUserInfo, ModifyInfo } from './user.js';
export { SubmitAdvice } from './advice.js';
export {
  Authenticated, Authenticate, AuthLoginPwd, GetSecurityAuthCode, GetNewEmailCode, GetNewPhoneCode, ModifySafeEmail, ModifySafePhone, ModifyPassword,
  GetRegisterEmailCode, GetRegisterPhoneCode, EmailRegister, PhoneRegister, GetAccountSafeSettingByAccount, GetSimpleUserByAccount, GetUnloginSecurityAuthCode, ResetPassword,
  GetLoginPhoneCode, PhoneCodeLogin, GetRegistration,
} from './account.js';
export { GetLoginQRCode, QRCodeLogin, GetQRCodeLoginRequest, ConfirmQRCodeLogin } from './qrlogin.js';
export {
  GetTree, GetTreeState, GetFolderTree, CreateFolder, UpdateFolderName, DeleteFolder, MoveFolder, MoveDevice, UpdateRemarkName,
  SetSecondLevelFixEnable, UpdateProperty, GetDetailByIMEI, GetDetailByFolder, GetCountByFolder, GetHandheldList,
  SetExperienceFuncEnable, RegisterDevice,
} from './device.js';
export {
  GetBirdInfo, GetBeastInfo, GetOtherSpeciesInfo, SaveBirdInfo, SaveBeastInfo, SaveOtherSpeciesInfo, GetWorkStatus, GetWorkStatusList,
} from './mount.js';
export { ImageUpload } from './upload.js';
export { GetTileLayers } from './map.js';
export {
  GetFixCount, GetFixListByPage, GetFix, GetFixList, GetFixListByImeis, GetAvgListByImeisAndTime, GetLastFixList, GetLastFixByImei, GetFixSpan,
  ConvertFixInvalid, GetConvertedInvalidCount, GetConvertedInvalidListPage,
} from './fix.js';
export { GetObservedWork } from '../device-state.js';
export { MovebankImport, GetMovebankImportList, GetMovebankImport, CancelMovebankImport } from './movebank.js';
export {
  GetTemperatureCount, GetTemperatureList, GetPressureCount, GetPressureList, GetWaterDepthCount, GetWaterDepthList,
  GetRedInfraredLightCount, GetRedInfraredLightList, GetLightIntensityCount, GetLightIntensityList, GetHumidityCount, GetHumidityList,
  GetMagnetismCount, GetMagnetismList, GetAccelerationCountV2, GetAccelerationListV2, GetSensorSeries,
} from './sensor.js';
export {
  ConvertPDMToWAV, BatchDownloadWAV, GetImageCount, GetImageList, GetImageAll, GetVideoCount, GetVideoList, GetVideoAll,
  GetAudioCount, GetAudioList, GetAudioAll,
} from './media.js';
export { GetPoiList, ExportPois, GetBehaviorCount, GetBehaviorList, GetBehaviorFilters } from './field.js';
export {
  DownLoadAccelerationDataV2, GetAccelerationBinaryV2, GetAccelerationArchiveCount, GetAccelerationArchiveList, DownloadAccelerationArchive,
} from './acceleration.js';
export { GetInstructionCount, GetInstructionList, Exceedrestrict, SendInstruction, WithdrawInstruction } from './instruction.js';
export { GetVersionInfo } from './version.js';
export { GetWeatherGrid, GetWeatherPoint } from './weather.js';
export { GetFenceList, GetDeviceFenceList, GetRuleListByType, CreateFence, UpdateFence, EnableFence, DeleteFence, ImportShp, ExportFences } from './fence.js';
export { RecordUserLog, GetUserLogList } from './userlog.js';
export { CreatePersonalToken, GetPersonalTokenList, RevokePersonalToken } from './token.js';
export { GetMemberList, CreateMember, SetMemberEnabled, ResetMemberPassword, ModifyTemporaryPassword } from './member.js';
export { GetNoticeUnReadCount, GetNoticeList, GetNotice, NoticeViewed, DeleteNotice } from './notice.js';
export { GetEventCount, GetEventListByPage, GetEventSubscribe, SetEventSubscribe, EventViewed, EventViewedAll } from './event.js';
export { GetShareRecipient, CreateShare, GetSharedCount, GetSharedListByPage, GetReceivedListByPage, UpdateShare, RevokeShare } from './share.js';
export { ExportData } from './export.js';
export { CreateDownloadTask, GetDownloadTaskCount, GetDownloadTaskListByPage, CancelDownloadTask, DeleteDownloadTask, DownloadDownloadTask } from './download-task.js';
