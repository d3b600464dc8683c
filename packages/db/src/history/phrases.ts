/**
 * What generated chats say: typical dispatcher questions and caller answers, each in the four
 * caller languages, so that a translated message carries a real translation.
 */
export type PhraseLanguage = 'en' | 'es' | 'fr' | 'zh';

export type Phrase = Record<PhraseLanguage, string>;

export const dispatcherPhrases: readonly Phrase[] = [
  {
    en: 'What is your exact address or the nearest cross street?',
    es: '¿Cuál es su dirección exacta o la calle transversal más cercana?',
    fr: 'Quelle est votre adresse exacte ou le croisement le plus proche ?',
    zh: '您的具体地址或最近的路口是哪里？',
  },
  {
    en: 'Is anyone injured?',
    es: '¿Hay alguien herido?',
    fr: 'Y a-t-il des blessés ?',
    zh: '有人受伤吗？',
  },
  {
    en: 'Officers are on the way. Stay where you are if it is safe.',
    es: 'Los agentes están en camino. Quédese donde está si es seguro.',
    fr: 'Les agents sont en route. Restez où vous êtes si vous êtes en sécurité.',
    zh: '警员正在赶来。如果安全，请留在原地。',
  },
  {
    en: 'Can you see a sign, a shop or a landmark near you?',
    es: '¿Puede ver algún letrero, tienda o punto de referencia cerca?',
    fr: 'Voyez-vous un panneau, un magasin ou un repère près de vous ?',
    zh: '您附近能看到路牌、商店或地标吗？',
  },
  {
    en: 'Please keep this page open so we can follow your location.',
    es: 'Mantenga esta página abierta para que podamos seguir su ubicación.',
    fr: 'Gardez cette page ouverte pour que nous puissions suivre votre position.',
    zh: '请保持此页面打开，以便我们跟踪您的位置。',
  },
  {
    en: 'Are you in a vehicle? What color is it?',
    es: '¿Está en un vehículo? ¿De qué color es?',
    fr: 'Êtes-vous dans un véhicule ? De quelle couleur est-il ?',
    zh: '您在车里吗？车是什么颜色的？',
  },
];

export const callerPhrases: readonly Phrase[] = [
  {
    en: "I'm in the parking lot behind the grocery store.",
    es: 'Estoy en el estacionamiento detrás del supermercado.',
    fr: 'Je suis sur le parking derrière le supermarché.',
    zh: '我在超市后面的停车场。',
  },
  {
    en: 'Nobody is hurt.',
    es: 'No hay nadie herido.',
    fr: "Personne n'est blessé.",
    zh: '没有人受伤。',
  },
  {
    en: "I can't talk right now.",
    es: 'No puedo hablar ahora.',
    fr: 'Je ne peux pas parler maintenant.',
    zh: '我现在不方便说话。',
  },
  {
    en: 'There is a gas station across the road.',
    es: 'Hay una gasolinera al otro lado de la carretera.',
    fr: "Il y a une station-service de l'autre côté de la route.",
    zh: '马路对面有一个加油站。',
  },
  {
    en: 'A silver car, next to the exit.',
    es: 'Un coche plateado, junto a la salida.',
    fr: 'Une voiture grise, à côté de la sortie.',
    zh: '一辆银色的车，在出口旁边。',
  },
  {
    en: 'I can see the lights now, thank you.',
    es: 'Ya veo las luces, gracias.',
    fr: 'Je vois les gyrophares maintenant, merci.',
    zh: '我现在看到警灯了，谢谢。',
  },
];
