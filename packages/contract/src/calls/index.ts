export { GetPublicKey, PasswordLogin, GetAccountSafeSetting, Heartbeat } from './auth.js';
export { Exit, ModifyLcid, GetAccountSetting, SetAccountSetting, GetUserInfo } from './user.js';
export {
  GetTree, GetFolderTree, CreateFolder, UpdateFolderName, DeleteFolder, MoveFolder, MoveDevice, UpdateRemarkName,
  SetSecondLevelFixEnable, UpdateProperty, GetDetailByIMEI, GetDetailByFolder, GetCountByFolder, GetHandheldList,
  SetExperienceFuncEnable,
} from './device.js';
export {
  GetBirdInfo, GetBeastInfo, GetOtherSpeciesInfo, SaveBirdInfo, SaveBeastInfo, SaveOtherSpeciesInfo, GetWorkStatus, GetWorkStatusList,
} from './mount.js';
export { ImageUpload } from './upload.js';
export { GetTileLayers } from './map.js';
export {
  GetFixCount, GetFixListByPage, GetFix, GetFixList, GetFixListByImeis, GetAvgListByImeisAndTime, GetLastFixList, GetLastFixByImei,
  ConvertFixInvalid, GetConvertedInvalidCount, GetConvertedInvalidListPage,
} from './fix.js';
export { MovebankImport, GetMovebankImportList, GetMovebankImport, CancelMovebankImport } from './movebank.js';
