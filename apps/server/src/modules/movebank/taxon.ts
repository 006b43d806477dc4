import { SpeciesType } from '@wildtrack/contract';

// Movebank gives a taxon as its canonical name ("Larus fuscus") and no class, so the species type
// is read from the genus (or from a higher taxon when that is what was entered). The lists hold the
// genera that make up most tracking studies; an unlisted taxon stays Unknown rather than guessed.
const BIRDS = `
Accipiter Acrocephalus Actitis Aegypius Alauda Alca Alectoris Anas Anser Anthropoides Apus Aquila Ardea Ardeola Arenaria
Asio Athene Aythya Branta Bubo Bubulcus Buteo Calidris Calonectris Catharacta Cathartes Ciconia Circaetus Circus Clanga
Columba Coracias Coragyps Corvus Coturnix Crex Cuculus Cygnus Delichon Diomedea Egretta Elanus Emberiza Eudocimus
Falco Ficedula Fratercula Fregata Fulica Fulmarus Gallinago Gavia Geronticus Grus Gypaetus Gyps Haematopus Haliaeetus
Hieraaetus Hirundo Hydroprogne Ichthyaetus Larus Leucophaeus Limosa Lanius Milvus Morus Motacilla Neophron Numenius
Nycticorax Oceanites Otis Pandion Passer Pelecanus Perdix Pernis Phalacrocorax Phoebastria Phoenicopterus Platalea
Pluvialis Podiceps Procellaria Pterodroma Puffinus Rissa Sagittarius Scolopax Somateria Spheniscus Stercorarius Sterna
Streptopelia Strix Sturnus Sula Sylvia Tachybaptus Thalassarche Thalasseus Threskiornis Torgos Tringa Turdus Tyto Upupa
Uria Vanellus Vultur Aptenodytes Pygoscelis Eudyptes Gallus Meleagris Struthio Dromaius Rhea Passerculus Setophaga
Vireo Catharus Hylocichla Zonotrichia Junco Melospiza Agelaius Quiscalus Icterus Tachycineta Chordeiles Caprimulgus
Chaetura Archilochus Selasphorus Megascops Strigops Nestor Ara Amazona Cacatua Psittacus Melopsittacus Gypohierax
Trigonoceps Terathopius Polemaetus Stephanoaetus Harpia Morphnus Spizaetus Ictinia Rostrhamus Chroicocephalus
`;

const MAMMALS = `
Acinonyx Addax Aepyceros Ailuropoda Alces Alopex Antilocapra Arctocephalus Balaena Balaenoptera Bison Bos Bubalus
Callorhinus Camelus Canis Capra Capreolus Caracal Castor Cebus Cephalophus Ceratotherium Cercopithecus Cervus Chlorocebus
Connochaetes Crocuta Cuon Cynomys Dama Damaliscus Delphinapterus Delphinus Diceros Didelphis Elephas Enhydra Equus
Erignathus Erinaceus Eschrichtius Eumetopias Felis Galago Gazella Giraffa Globicephala Gorilla Gulo Halichoerus
Herpestes Hippopotamus Hippotragus Hyaena Hydrochoerus Kobus Lama Leopardus Lepus Litocranius Loxodonta Lutra Lycaon
Lynx Macaca Madoqua Marmota Martes Meles Mephitis Mesoplodon Mirounga Monodon Moschus Mustela Myotis Neovison Nyctalus
Odobenus Odocoileus Orcinus Oreamnos Oryx Otocolobus Ovibos Ovis Pan Panthera Papio Phoca Phocoena Physeter Pipistrellus
Pongo Procyon Procapra Puma Pteropus Pusa Rangifer Rhinolophus Rupicapra Saiga Sciurus Sus Sylvicapra Syncerus Tadarida
Tamias Tapirus Taurotragus Taxidea Trichechus Tragelaphus Tursiops Urocyon Ursus Vicugna Vulpes Zalophus Ziphius
Eidolon Epomophorus Rousettus Desmodus Artibeus Lasiurus Eptesicus Vombatus Macropus Phascolarctos Sarcophilus Dasyurus
Trichosurus Pekania Lontra Nasua Potos Mazama Pudu Hippocamelus Blastocerus Tayassu Pecari Myrmecophaga Tamandua
Priodontes Dasypus Bradypus Choloepus Alouatta Ateles Lagothrix Saimiri Callithrix Leontopithecus Rattus Mus Apodemus
Microtus Myodes Peromyscus Neotoma Dipodomys Spermophilus Urocitellus Ictidomys Cricetus Meriones Gerbillus Lemur
Propithecus Microcebus Hylobates Nomascus Symphalangus Rhinopithecus Trachypithecus Nasalis Colobus Mandrillus Theropithecus
`;

const OTHER = `
Alligator Caretta Chelonia Chelydra Crocodylus Dermochelys Eretmochelys Gopherus Lepidochelys Natator Testudo Terrapene
Varanus Python Boa Crotalus Naja Ophiophagus Iguana Amblyrhynchus Conolophus Chelonoidis Aldabrachelys Geochelone
Carcharodon Carcharhinus Galeocerdo Isurus Prionace Rhincodon Sphyrna Cetorhinus Manta Mobula Thunnus Xiphias Istiophorus
Makaira Salmo Oncorhynchus Salvelinus Acipenser Anguilla Gadus Esox Silurus Mola Bufo Rana Lithobates Anaxyrus
Danaus Apis Bombus Vespa Schistocerca Locusta Anax Octopus Sepia Dosidicus Homarus Birgus
`;

const HIGHER: Record<string, number> = {
  aves: SpeciesType.Bird,
  mammalia: SpeciesType.Beast,
  reptilia: SpeciesType.OtherSpecies,
  amphibia: SpeciesType.OtherSpecies,
  actinopterygii: SpeciesType.OtherSpecies,
  chondrichthyes: SpeciesType.OtherSpecies,
  insecta: SpeciesType.OtherSpecies,
  // orders that are often entered instead of a species
  accipitriformes: SpeciesType.Bird,
  anseriformes: SpeciesType.Bird,
  charadriiformes: SpeciesType.Bird,
  ciconiiformes: SpeciesType.Bird,
  passeriformes: SpeciesType.Bird,
  procellariiformes: SpeciesType.Bird,
  strigiformes: SpeciesType.Bird,
  carnivora: SpeciesType.Beast,
  artiodactyla: SpeciesType.Beast,
  cetacea: SpeciesType.Beast,
  chiroptera: SpeciesType.Beast,
  primates: SpeciesType.Beast,
  rodentia: SpeciesType.Beast,
  testudines: SpeciesType.OtherSpecies,
  squamata: SpeciesType.OtherSpecies,
  crocodylia: SpeciesType.OtherSpecies,
};

const GENUS = new Map<string, number>();
for (const [list, type] of [[BIRDS, SpeciesType.Bird], [MAMMALS, SpeciesType.Beast], [OTHER, SpeciesType.OtherSpecies]] as const) {
  for (const g of list.split(/\s+/).filter(Boolean)) GENUS.set(g.toLowerCase(), type);
}

/** Bird, Beast or OtherSpecies from a taxon name; Unknown when it can't be told. */
export function speciesTypeOf(taxon: string | undefined): number {
  const first = taxon?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!first) return SpeciesType.Unknown;
  return GENUS.get(first) ?? HIGHER[first] ?? SpeciesType.Unknown;
}
